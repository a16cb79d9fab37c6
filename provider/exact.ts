/**
 * Compile-time checks that a hand-written public interface and the zod schema that validates it describe
 * the same type. The public declarations name no zod type: zod's own declarations do not compile under
 * the tsconfig Pulumi's templates use (no `esModuleInterop`, no `skipLibCheck`).
 * @internal
 */

/** Exact<A, B> is `true` when A and B are the same type, `false` otherwise. @internal */
export type Exact<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Assert<T> compiles only when T is `true`. @internal */
export type Assert<T extends true> = T;
