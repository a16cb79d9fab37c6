/**
 * Products of the billing endpoint (docs/API.md#billing-parameters): the `productId` selector.
 */
import { ConfigError } from "../errors";

/** The products and their ids (docs/API.md#billing-parameters). */
export const PRODUCTS = { openstack: 1, "object-storage": 2, vmware: 3 } as const;

/** A product name. */
export type ProductName = keyof typeof PRODUCTS;
/** A product id. */
export type ProductId = (typeof PRODUCTS)[ProductName];
/** A product as users give it: its id, or its name. */
export type Product = ProductId | ProductName | `${ProductId}`;

/** productName names a product id for messages. */
export function productName(id: ProductId): ProductName {
  return (Object.keys(PRODUCTS) as ProductName[]).find((k) => PRODUCTS[k] === id) ?? "openstack";
}

/**
 * parseProduct accepts 1, 2, 3 (or "1", "2", "3") and openstack, object-storage, vmware.
 *
 * @example parseProduct("object-storage") // 2
 */
export function parseProduct(value: unknown, field = "product"): ProductId {
  const accepted = "use 1 or openstack (cloud platform), 2 or object-storage, 3 or vmware";
  if (typeof value === "number") {
    if (value === 1 || value === 2 || value === 3) return value;
    throw new ConfigError(field, `${value} is not a product; ${accepted}`);
  }
  if (typeof value === "string") {
    const v = value.trim().toLowerCase();
    if (v === "1" || v === "2" || v === "3") return Number(v) as ProductId;
    const aliases: Record<string, ProductId> = {
      openstack: 1,
      "object-storage": 2,
      objectstorage: 2,
      object_storage: 2,
      s3: 2,
      vmware: 3,
    };
    const id = Object.hasOwn(aliases, v) ? aliases[v] : undefined;
    if (id) return id;
    throw new ConfigError(field, `"${value}" is not a product; ${accepted}`);
  }
  throw new ConfigError(field, `missing or not a product; ${accepted}`);
}
