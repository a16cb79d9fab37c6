/**
 * Catalog lookup: the URL of a service by type, interface and region, as keystoneauth's
 * `get_endpoint(service_type, interface, region_name)` does.
 */
import type { CatalogService } from "./results";

/** The interfaces Keystone catalogs use. */
export type EndpointInterface = "public" | "internal" | "admin";

/**
 * findEndpoint returns the URL of the first endpoint of `serviceType` with `iface`
 * (and `region`, when given), or undefined.
 *
 * @example findEndpoint(token.catalog, "compute", "public", "RegionOne")
 */
export function findEndpoint(
  catalog: readonly CatalogService[],
  serviceType: string,
  iface: EndpointInterface | string = "public",
  region?: string,
): string | undefined {
  const wanted = iface.replace(/URL$/, "");
  for (const service of catalog) {
    if (service.type !== serviceType) continue;
    for (const ep of service.endpoints) {
      if (ep.interface !== wanted) continue;
      if (region && ep.region !== region) continue;
      return ep.url;
    }
  }
  return undefined;
}
