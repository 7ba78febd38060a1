# Hand experiment (not the compiler): a producer warpgroup (setmaxnreg) for the TMA ring of every aligned
# matmul kernel: the producer issues all the copies behind per-stage empty mbarriers; the consumers
# (NUM_THREADS) wait on the full barriers, release each stage after the wgmma_wait that retires
# its product, and synchronize among themselves with a named barrier.
import sys
src = open(sys.argv[1]).read()
chunks = src.split('namespace aligned {')
res = chunks[0]; n = 0
for body in chunks[1:]:
    end = body.index('} // namespace aligned')
    k = body[:end]; rest = body[end:]
    if 'stage_full' not in k:
        res += 'namespace aligned {' + body; continue
    old = '''  alignas(8) __shared__ uint64_t stage_full[NUM_STAGES];
  if (threadIdx.x == 0) {
    TILEC_UNROLL
    for (int i = 0; i < NUM_STAGES; ++i)
      tilec::rt::mbarrier_init(&stage_full[i], STAGE_COPIES);'''
    assert old in k
    k = k.replace(old, '''  alignas(8) __shared__ uint64_t stage_full[NUM_STAGES];
  alignas(8) __shared__ uint64_t stage_empty[NUM_STAGES];
  if (threadIdx.x == 0) {
    TILEC_UNROLL
    for (int i = 0; i < NUM_STAGES; ++i) {
      tilec::rt::mbarrier_init(&stage_full[i], STAGE_COPIES);
      tilec::rt::mbarrier_init(&stage_empty[i], NUM_WARPS);
    }''')
    # the prologue loop: cut out; its copies become the producer's loop body
    a = k.index('  TILEC_UNROLL\n  for (int stage = 0; stage < NUM_STAGES - 1; ++stage) {\n')
    b = k.index('  int read_stage = 0;', a)
    pro = k[a:b]
    c0 = pro.index('    if (stage < tilec::rt::cdiv(K, BLOCK_K)) {\n') + len('    if (stage < tilec::rt::cdiv(K, BLOCK_K)) {\n')
    c1 = pro.rindex('    }\n  }\n')
    copies = pro[c0:c1]
    copies = copies.replace('[stage]', '[s]').replace('stage * BLOCK_K', 'kt * BLOCK_K')
    copies = copies.replace('if (threadIdx.x == 0) {', '{')
    # drop the comment line that names the loop after the prologue
    k = k[:a] + k[b:]
    producer = '''  if (threadIdx.x >= NUM_THREADS) { // the producer warpgroup: one thread issues every copy
    if constexpr (NUM_WARPS == 8)
      asm volatile("setmaxnreg.dec.sync.aligned.u32 40;" ::: "memory");
    if (threadIdx.x == NUM_THREADS) {
      int s = 0;
      uint32_t phase = 0;
      for (int kt = 0; kt < tilec::rt::cdiv(K, BLOCK_K); ++kt) {
        tilec::rt::mbarrier_wait(&stage_empty[s], phase ^ 1);
''' + copies + '''        if (++s == NUM_STAGES) {
          s = 0;
          phase ^= 1;
        }
      }
    }
    return;
  }
  if constexpr (NUM_WARPS == 8)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;" ::: "memory");
'''
    anchor = '  const int pid_n = pid % num_pid_in_group / group_size_m;\n'
    assert anchor in k
    k = k.replace(anchor, anchor + producer, 1)
    # the loop: after wgmma_wait<1>, release the stage the retired product read; no barrier,
    # no copies
    w = k.index('    tilec::rt::wgmma_wait<1>();\n')
    bsync = k.index('    __syncthreads();\n', w)
    ph = k.index('    if (read_stage == NUM_STAGES - 1) {', bsync)
    k = k[:bsync] + '''    if (k > 0 && threadIdx.x % 32 == 0) // the product of the last iteration has retired: its stage is free
      tilec::rt::mbarrier_arrive(&stage_empty[(read_stage + NUM_STAGES - 1) % NUM_STAGES]);
''' + k[ph:]
    split = k.index(producer) + len(producer)
    k = k[:split] + k[split:].replace('__syncthreads();', 'tilec::rt::named_barrier_sync(1, NUM_THREADS);')
    assert '__launch_bounds__(NUM_THREADS' in k
    k = k.replace('__launch_bounds__(NUM_THREADS', '__launch_bounds__(NUM_THREADS + 128, 1', 1)
    res += 'namespace aligned {' + k + rest; n += 1
# the launcher: the producer warp's 32 threads beside NUM_THREADS for the aligned kernel
out = []
lines = res.split('\n')
pending = None
for line in lines:
    out.append(line)
    if line.startswith('  config.blockDim = dim3(') and '::NUM_THREADS);' in line:
        pending = line[len('  config.blockDim = dim3('):line.index('::NUM_THREADS')]
    if pending and line == '  if (aligned) {':
        out.append('    config.blockDim = dim3(%s::NUM_THREADS + 128);' % pending)
        pending = None
open(sys.argv[2], 'w').write('\n'.join(out))
print('kernels', n)
