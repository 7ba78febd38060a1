# lit configuration for tilec's pass tests: kernel sources with RUN lines that translate them with
# --emit=ir --stop-after=<pass> and CHECK lines (FileCheck) in the same file.
import os
import lit.formats

config.name = "tilec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_build_dir, "tests", "lit")
config.substitutions.append(("%tilec", config.tilec_binary))
config.substitutions.append(("%FileCheck", config.filecheck_binary))
config.substitutions.append(("%not", config.not_binary))
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(config.filecheck_binary), config.environment.get("PATH", "")])
