// Allocation for the TypeScript side. Only the main instance calls it (workers share its memory and receive
// pointers); the stub runtime is a bump allocator that never frees, so a kernel instance is built per job and
// dropped afterwards.
export function alloc(bytes: usize): usize {
  return heap.alloc(bytes);
}
