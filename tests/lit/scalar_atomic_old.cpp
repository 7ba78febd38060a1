// The old value of a scalar pointer's atomic: one thread updates, and every thread gets the value
// through shared memory (a barrier after the write, one after the read, so a loop's next update
// waits for every read). An atomic inside an expression runs before its statement, into a
// variable; in a while loop's condition at the top of each iteration, under a flag. The barrier
// that ends the hand-over orders what came before it: insert-barriers adds none before the load
// of `count` (same pointer parameter as the lock), but keeps the one between that load and the
// store to it.
// RUN: %tilec --emit=ir --stop-after=insert-barriers %s -o - | %FileCheck %s
// RUN: %tilec %s -o - | %FileCheck %s --check-prefix=CUDA
// RUN: %tilec --target=hip %s -o - | %FileCheck %s --check-prefix=HIP
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @lock_count<128>
// CHECK: decl %stop_loop: i1 = 0:i1
// CHECK-NEXT: while not(%stop_loop) {
// CHECK-NEXT: decl %cas_old: i32
// CHECK-NEXT: %cas_old = atomic_cas.acq_rel.gpu(
// CHECK-NEXT: if ne(%cas_old, 0:i32) {
// CHECK-NEXT: %stop_loop = 1:i1
// CHECK: decl %count: i32 = load(
// CHECK-NEXT: barrier global(load [[#@LINE+31]] -> store)
// CHECK-NEXT: store(
// CHECK: decl %ticket: i32
// CHECK-NEXT: %ticket = atomic_add.acq_rel.gpu(
// CHECK-NEXT: decl %add_old: i32
// CHECK-NEXT: %add_old = atomic_add.relaxed.gpu(
// CUDA-LABEL: namespace lock_count_128 {
// CUDA: bool stop_loop = false;
// CUDA-NEXT: while (!stop_loop) {
// CUDA-NEXT: int cas_old;
// CUDA-NEXT: {
// CUDA-NEXT: __shared__ int cas_old_smem;  // the old value, from the updating thread to all
// CUDA-NEXT: if (threadIdx.x == 0)  // one thread updates a scalar
// CUDA-NEXT: cas_old_smem = tilec::rt::atomic_cas<tilec::rt::Sem::acq_rel, tilec::rt::Scope::gpu>(lock, 0, 1);
// CUDA-NEXT: __syncthreads();
// CUDA-NEXT: cas_old = cas_old_smem;
// CUDA-NEXT: __syncthreads();
// CUDA-NEXT: }
// CUDA-NEXT: if (cas_old != 0) {
// CUDA-NEXT: stop_loop = true;
// CUDA: add_old_smem = (ticket > 2) ? tilec::rt::atomic_add<tilec::rt::Sem::relaxed, tilec::rt::Scope::gpu>(&lock[2], ticket) : 0;
// HIP-LABEL: namespace lock_count_128 {
// HIP: __shared__ int cas_old_smem;
// HIP: if (threadIdx.x == 0)
// HIP: __syncthreads();

template <int B>
TILEC_KERNEL(num_warps = 4)
void lock_count(int *lock, int *out) {
  while (tl::atomic_cas(lock, 0, 1) == 0) {
  }
  int count = tl::load(lock + 1);
  tl::store(lock + 1, count + 1);
  tl::debug_barrier();
  tl::atomic_xchg(lock, 0);
  int ticket = tl::atomic_add(lock + 3, 1);
  tl::store(out + tl::arange<0, B>(), tl::atomic_add(lock + 2, ticket, ticket > 2, tl::relaxed) + tl::arange<0, B>());
}
template void lock_count<128>(int *, int *);
