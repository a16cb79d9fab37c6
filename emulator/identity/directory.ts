/**
 * The identity objects of the seed, looked up the ways Keystone resolves a token request:
 * users by id or by name within a domain (id or name), projects likewise, application
 * credentials by id or by name within a user.
 */
import type {
  SeedApplicationCredential,
  SeedData,
  SeedDomain,
  SeedProject,
  SeedRole,
  SeedUser,
} from "../seed";

/** A domain reference as sent in a request: `{id}` or `{name}`. */
export interface DomainRef {
  id?: string;
  name?: string;
}

/** Directory answers lookups over the seeded identity objects. */
export class Directory {
  readonly users: SeedUser[];
  readonly projects: SeedProject[];
  readonly domains: SeedDomain[];
  readonly appCreds: SeedApplicationCredential[];

  constructor(private readonly seed: SeedData) {
    this.users = Object.values(seed.users);
    this.projects = Object.values(seed.projects);
    this.domains = Object.values(seed.domains);
    this.appCreds = Object.values(seed.applicationCredentials);
  }

  /** domain resolves `{id}` (preferred) or `{name}`. */
  domain(ref: DomainRef | undefined): SeedDomain | undefined {
    if (!ref) return undefined;
    if (ref.id !== undefined) return this.domains.find((d) => d.id === ref.id);
    if (ref.name !== undefined) return this.domains.find((d) => d.name === ref.name);
    return undefined;
  }

  userById(id: string): SeedUser | undefined {
    return this.users.find((u) => u.id === id);
  }

  userByName(name: string, domain: SeedDomain): SeedUser | undefined {
    return this.users.find((u) => u.name === name && u.domain.id === domain.id);
  }

  projectById(id: string): SeedProject | undefined {
    return this.projects.find((p) => p.id === id);
  }

  projectByName(name: string, domain: SeedDomain): SeedProject | undefined {
    return this.projects.find((p) => p.name === name && p.domain.id === domain.id);
  }

  appCredById(id: string): SeedApplicationCredential | undefined {
    return this.appCreds.find((c) => c.id === id);
  }

  appCredByName(name: string, userId: string): SeedApplicationCredential | undefined {
    return this.appCreds.find((c) => c.name === name && c.userId === userId);
  }

  /** addUser makes another user known (see Emulator.addUser). */
  addUser(user: SeedUser): void {
    this.users.push(user);
  }

  /** addAppCred makes another application credential known (see Emulator.addApplicationCredential). */
  addAppCred(cred: SeedApplicationCredential): void {
    this.appCreds.push(cred);
  }

  /** roles lists the user's roles on a project (empty: no assignment), in Keystone's order. */
  roles(user: SeedUser, projectId: string): SeedRole[] {
    return user.projectIds.includes(projectId) ? [this.seed.roles.reader, this.seed.roles.member] : [];
  }
}
