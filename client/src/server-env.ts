// The environment the extension starts the language server with.

/**
 * glibc's threshold above which `malloc` maps memory of its own (and gives it back when freed), in
 * bytes. Left to itself, glibc raises it to the size of each such block freed (up to 32 MB), after
 * which blocks of that size stay in its heap once freed, as resident memory. Fixed, as this variable
 * fixes it (read by glibc at start-up; ignored by other C libraries and systems), the server's RSS
 * after `bench/lsp-vs-mlir.ts`'s run at 20,000 lines was 206-210 MB instead of 222-224, 181 instead of
 * 200 idle, peak 252-259 instead of 279; no timing changed beyond noise (2 runs each). It takes
 * effect where the server's Node allocates with glibc (VS Code Server, code-server, a system Node);
 * VS Code Desktop runs the server on its Electron binary, whose allocator was not measured.
 */
export const MALLOC_MMAP_THRESHOLD = '131072';

/** `env` with the variables the server runs better with, where the user has not set them. */
export function serverEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? MALLOC_MMAP_THRESHOLD };
}
