# Hand experiment (not the compiler): ping-pong consumers. From the warp-specialized 128x128x64
# w4 kernel (one consumer warpgroup, compiled with warp_specialize = true): two consumer
# warpgroups, each running whole programs of its own (warpgroup c takes the block's programs of
# rank c, c + 2, ...), fed in program order by the one producer through the one ring. The
# warpgroups' mainloops alternate (mbarriers turn[0], turn[1]: warpgroup c starts a mainloop once
# the other's last one has ended), so that one's epilogue runs while the other's mainloop has the
# tensor cores. Each finds its program's place in the ring from the program's rank in the block's
# sequence, and has its own epilogue staging buffer and named barrier. The runtime's layouts read
# the thread's index modulo 128 (a scratch copy of runtime_headers), so that each warpgroup sees a
# block of 4 warps.
import sys
src = open(sys.argv[1]).read()
ns = 'matmul_kernel_128_128_64_8_4_3_0'
a = src.index('namespace %s {' % ns)
b = src.index('} // namespace %s' % ns, a)
end = src.index('\n}\n', b) + 3
k = src[a:end]
al = k.index('namespace aligned {')
head, body = k[:al], k[al:]
def rep(old, new, count=1):
    global body
    assert body.count(old) >= count, old
    body = body.replace(old, new, count)
rep('constexpr int SMEM_BYTES = 131072;', 'constexpr int SMEM_BYTES = 131072 + 32768;  // a second staging buffer')
rep('__launch_bounds__(NUM_THREADS + PRODUCER_THREADS, 1)', '__launch_bounds__(2 * NUM_THREADS + PRODUCER_THREADS, 1)')
rep('__half *store_cvt_smem = reinterpret_cast<__half *>(smem + 98304);',
    'const int consumer = threadIdx.x / NUM_THREADS;  // 0, 1; 2: the producer\n'
    '  __half *store_cvt_smem = reinterpret_cast<__half *>(smem + 98304 + (consumer & 1) * 32768);')
rep('  alignas(8) __shared__ uint64_t stage_empty[NUM_STAGES];\n',
    '  alignas(8) __shared__ uint64_t stage_empty[NUM_STAGES];\n'
    '  alignas(8) __shared__ uint64_t turn[2];  // ping-pong: warpgroup c waits on turn[c]\n')
rep('      tilec::rt::mbarrier_init(&stage_empty[i], NUM_THREADS);\n    }\n',
    '      tilec::rt::mbarrier_init(&stage_empty[i], NUM_THREADS);\n    }\n'
    '    tilec::rt::mbarrier_init(&turn[0], NUM_THREADS);\n'
    '    tilec::rt::mbarrier_init(&turn[1], NUM_THREADS);\n')
rep('if (threadIdx.x >= NUM_THREADS) {',
    'if (threadIdx.x >= 2 * NUM_THREADS) {\n    tilec::rt::warpgroup_release_registers<40>();')
rep('if (threadIdx.x == NUM_THREADS) {', 'if (threadIdx.x == 2 * NUM_THREADS) {')
rep('''  int read_stage = 0;
  int read_phase = 0;
  TILEC_NO_UNROLL
  for (int program = static_cast<int>(blockIdx.x); program < num_programs;
       program += static_cast<int>(gridDim.x)) {
''', '''  tilec::rt::warpgroup_claim_registers<232>();
  int read_stage = 0;
  int read_phase = 0;
  TILEC_NO_UNROLL
  for (int program = static_cast<int>(blockIdx.x) + consumer * static_cast<int>(gridDim.x);
       program < num_programs; program += 2 * static_cast<int>(gridDim.x)) {
    {  // this program's place in the ring: the block's programs before it took KT stages each
      const int rank = (program - static_cast<int>(blockIdx.x)) / static_cast<int>(gridDim.x);
      const int pos = rank * tilec::rt::cdiv(K, BLOCK_K);
      read_stage = pos % NUM_STAGES;
      read_phase = pos / NUM_STAGES & 1;
      // ping-pong: this warpgroup's mainloop waits for the other's last one to end, so that the
      // two alternate on the tensor cores (and a ring position is waited for only once the round
      // before it was consumed: parity waits cannot tell rounds two apart)
      const int round = rank / 2;
      if (rank > 0)
        tilec::rt::mbarrier_wait(&turn[consumer], consumer == 0 ? (round - 1) & 1 : round & 1);
    }
''')
rep("    // the loop's last product lands in accumulator_wgmma, which goes back to accumulator\n",
    "    tilec::rt::mbarrier_arrive(&turn[1 - consumer]);  // the other warpgroup's turn\n"
    "    // the loop's last product lands in accumulator_wgmma, which goes back to accumulator\n")
rep('tilec::rt::named_barrier_sync(1, NUM_THREADS);', 'tilec::rt::named_barrier_sync(1 + consumer, NUM_THREADS);', 2)
k2 = head + body
o = 'config.blockDim = dim3(%s::aligned::NUM_THREADS +' % ns
assert o in k2
k2 = k2.replace(o, 'config.blockDim = dim3(2 * %s::aligned::NUM_THREADS +' % ns)
src = src[:a] + k2 + src[end:]
src = src.replace('#include <tilec/cuda/runtime.cuh>', '#include "rt_pp/tilec/cuda/runtime.cuh"', 1)
open(sys.argv[2], 'w').write(src)
print('ok')
