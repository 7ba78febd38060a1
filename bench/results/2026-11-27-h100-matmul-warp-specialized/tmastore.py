# Hand experiment (not the compiler): the warp-specialized kernels' epilogue through a TMA store:
# the consumers write the fp16 tile into shared memory in TMA's 128-byte-swizzled column blocks,
# and thread 0 stores the blocks with tma_store_2d (clipped at the tensor's edges, no masks),
# waiting for the stores' reads of shared memory only before the next program's epilogue writes it.
import sys
src = open(sys.argv[1]).read()
for ns in ['matmul_kernel_128_256_32_8_8_4_0', 'matmul_kernel_256_128_32_8_8_4_0']:
    a = src.index('namespace %s {' % ns)
    b = src.index('} // namespace %s' % ns, a)
    end = src.index('\n}\n', b) + 3  # the launcher after the namespace
    k = src[a:end]
    al = k.index('namespace aligned {')
    head, body = k[:al], k[al:]
    old = 'using STORE_CVT_SWIZZLE = tilec::rt::XorSwizzle<BLOCK_N, 8, 1, 8>;'
    assert old in body
    body = body.replace(old, 'using STORE_CVT_SWIZZLE = tilec::rt::XorSwizzleColumnBlocks<BLOCK_M, 64, 8, 1, 8>;')
    old = 'b_tile_map, int num_programs,'
    assert old in body
    body = body.replace(old, 'b_tile_map,\n    const __grid_constant__ tilec::rt::TensorMap2D c_map, int num_programs,')
    st = body.index('// matmul.cpp:68: tl::store(')
    nb = body.index('    tilec::rt::named_barrier_sync(1, NUM_THREADS);', st)
    body = body[:nb] + '    if (threadIdx.x == 0) // the last program\'s stores have read the staging buffer\n      tilec::rt::tma_store_wait<0>();\n' + body[nb:]
    s0 = body.index('    __half store_cvt[L3::ELEMS0][L3::ELEMS1];')
    s1 = body.index('  }\n}\n', s0)
    body = body[:s0] + '''    if (threadIdx.x == 0) {
      TILEC_UNROLL
      for (int blk = 0; blk < BLOCK_N; blk += 64)
        tilec::rt::tma_store_2d(&c_map, pid_m * BLOCK_M, pid_n * BLOCK_N + blk,
                                &store_cvt_smem[STORE_CVT_SWIZZLE::offset(0, blk)]);
      tilec::rt::tma_store_commit();
    }
  }
  if (threadIdx.x == 0)
    tilec::rt::tma_store_wait<0>();
}
''' + body[s1 + len('  }\n}\n'):]
    old = 'if (a_tile_map_made == cudaSuccess && b_tile_map_made == cudaSuccess) {'
    assert old in body
    body = body.replace(old, '''tilec::rt::TensorMap2D c_map;
    const cudaError_t c_map_made = tilec::rt::make_tensor_map_2d(
        &c_map, c, M, N, stride_cm, %s::aligned::BLOCK_M, 64, tilec::rt::SmemSwizzle::Bytes128);
    if (a_tile_map_made == cudaSuccess && b_tile_map_made == cudaSuccess && c_map_made == cudaSuccess) {''' % ns)
    old = 'a_tile_map, b_tile_map, static_cast<int>(grid.x)'
    assert old in body
    body = body.replace(old, 'a_tile_map, b_tile_map, c_map, static_cast<int>(grid.x)')
    src = src[:a] + head + body + src[end:]
open(sys.argv[2], 'w').write(src)
print('ok')
