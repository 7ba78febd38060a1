# lit configuration for the planted-bug tests of tilec's CPU emulator (tests/emu/planted). The RUN
# lines run in bash (grep finds the planted copy's line numbers for FileCheck -D).
import os
import lit.formats

config.name = "tilec-emu-planted"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.build_dir
config.substitutions.append(("%root", config.source_root))
# Compile a host program (a .cu file, as C++) with the emulator and link it.
config.substitutions.append(("%emu-cxx", config.emu_cxx))
config.substitutions.append(("%emu-libs", config.emu_libs))
config.substitutions.append(("%FileCheck", config.filecheck_binary))
config.substitutions.append(("%not", config.not_binary))
# The matmul example translated for sm_80 (mma.sync), where a test plants its bug in that path
# rather than in the golden (sm_90a: wgmma).
config.substitutions.append(("%tilec", config.tilec))
