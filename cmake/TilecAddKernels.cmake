# tilec_add_kernels(): run tilec at build time and compile its output into a target.
#
#   tilec_add_kernels(<target>
#     SOURCES <kernel.cpp>...            kernel sources (relative to the current source directory)
#     [TARGET cuda|hip]                  the language to generate (default: cuda)
#     [ARCH <arch>]                      tilec --arch (default: sm_90a for cuda, gfx90a for hip);
#                                        for cuda only a label (CUDA_ARCHITECTURES decides nvcc's
#                                        code), for hip compiled as C++ also --offload-arch
#     [INSTANTIATE <kernel<args>>...]    tilec --instantiate, for every source of this call; quote
#                                        values with spaces: INSTANTIATE "k<128, 4>"
#     [INCLUDE_DIRECTORIES <dir>...]     -I for the kernel sources (relative: to the source directory)
#     [COMPILE_DEFINITIONS <NAME=VALUE>...]  -D for the kernel sources
#     [OPTIONS <tilec option>...])       more tilec options, e.g. --no-provenance, --line-directives
#
# For each source `<dir>/<name>.cpp` the build runs tilec, which writes into
# ${CMAKE_CURRENT_BINARY_DIR}/tilec/<target>/:
#   <name>.cu or <name>.hip   the kernels and their host launchers, added to <target>'s sources;
#   <name>_launchers.h        the launchers' declarations: host code does #include "<name>_launchers.h";
#   <name>.cu.d / .hip.d      the depfile: tilec runs again when the source or any header it includes
#                             changes (or tilec itself), and not otherwise.
# <target> also gets the include directories of the generated files and of tilec's runtime headers.
#
# CUDA output is compiled with CMake's CUDA language (enable it: project(... LANGUAGES CXX CUDA)).
# HIP output is compiled with CMake's HIP language if the project enabled it; otherwise as C++ by
# the C++ compiler, which must then be hipcc (-DCMAKE_CXX_COMPILER=hipcc), with -x hip and
# --offload-arch=<ARCH>.
#
# On an error in a kernel the build stops with tilec's message (file:line:column: error: ...) and
# the generated files of that source are deleted, not left stale.
#
# Known limits (of CMake and Ninja, not of the depfile tilec writes):
#   - with the Makefiles generator of CMake 3.25 (Debian 12), a header that a kernel stops
#     including stays in the recorded dependencies; once that header is deleted, every build runs
#     tilec again (Ninja does not do this);
#   - a header path containing '#' or '$' makes Ninja run tilec on every build.

# Functions keep the policies in force where they are defined: CMP0116 (3.20) makes CMake rewrite
# depfile paths for Ninja.
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)

function(tilec_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TARGET;ARCH"
                        "SOURCES;INSTANTIATE;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;OPTIONS")
  set(fn "tilec_add_kernels(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET tilec::tilec)
    message(FATAL_ERROR "${fn}: tilec::tilec is not defined here; call find_package(tilec) in this "
                        "directory or a parent directory")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${fn}: no target named '${target}'; create it first (add_executable or add_library)")
  endif()
  get_target_property(target_dir ${target} SOURCE_DIR)
  if(NOT target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "${fn}: call it in the directory that creates '${target}' (${target_dir})")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "${fn}: no SOURCES given")
  endif()
  if(NOT arg_TARGET)
    set(arg_TARGET cuda)
  endif()

  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(arg_TARGET STREQUAL "cuda")
    set(ext .cu)
    if(NOT "CUDA" IN_LIST languages)
      message(FATAL_ERROR "${fn}: TARGET cuda needs CMake's CUDA language: "
                          "project(... LANGUAGES CXX CUDA) or enable_language(CUDA)")
    endif()
  elseif(arg_TARGET STREQUAL "hip")
    set(ext .hip)
  else()
    message(FATAL_ERROR "${fn}: TARGET must be 'cuda' or 'hip', not '${arg_TARGET}'")
  endif()

  set(tilec_args --target=${arg_TARGET})
  if(arg_ARCH)
    list(APPEND tilec_args --arch=${arg_ARCH})
  endif()
  foreach(spelling IN LISTS arg_INSTANTIATE)
    list(APPEND tilec_args --instantiate=${spelling})
  endforeach()
  list(APPEND tilec_args ${arg_OPTIONS})
  set(clang_args)
  foreach(dir IN LISTS arg_INCLUDE_DIRECTORIES)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND clang_args -I${dir})
  endforeach()
  foreach(def IN LISTS arg_COMPILE_DEFINITIONS)
    list(APPEND clang_args -D${def})
  endforeach()

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/tilec/${target}")
  file(MAKE_DIRECTORY "${out_dir}")
  get_target_property(seen ${target} TILEC_GENERATED_NAMES)
  if(NOT seen)
    set(seen)
  endif()
  set(generated)
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(src_path "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${src}" NAME_WLE)
    if(name IN_LIST seen)
      message(FATAL_ERROR "${fn}: two kernel sources named '${name}' would write the same files "
                          "(${out_dir}/${name}${ext}); rename one")
    endif()
    list(APPEND seen ${name})
    set(out "${out_dir}/${name}${ext}")
    set(header "${out_dir}/${name}_launchers.h")
    file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${src_path}")
    add_custom_command(
      OUTPUT "${out}" "${header}"
      # tilec itself never writes on an error; this removes the previous run's files, so that a
      # failed build leaves nothing stale.
      COMMAND "${CMAKE_COMMAND}" -E rm -f "${out}" "${header}" "${out}.d"
      COMMAND tilec::tilec ${tilec_args} "${src_path}" -o "${out}" --header "${header}"
              --depfile "${out}.d" -- ${clang_args}
      DEPENDS "${src_path}" "$<TARGET_FILE:tilec::tilec>"
      DEPFILE "${out}.d"
      COMMENT "tilec: generating ${arg_TARGET} from ${shown}"
      VERBATIM)
    list(APPEND generated "${out}")
    target_sources(${target} PRIVATE "${out}" "${header}")
  endforeach()
  set_property(TARGET ${target} PROPERTY TILEC_GENERATED_NAMES ${seen})

  if(arg_TARGET STREQUAL "hip" AND NOT "HIP" IN_LIST languages)
    set(arch gfx90a)
    if(arg_ARCH)
      set(arch ${arg_ARCH})
    endif()
    set_source_files_properties(${generated} PROPERTIES
      LANGUAGE CXX COMPILE_OPTIONS "-xhip;--offload-arch=${arch}")
  endif()
  # The generated code and the runtime headers are C++17.
  if(arg_TARGET STREQUAL "cuda")
    target_compile_features(${target} PRIVATE cuda_std_17)
  elseif("HIP" IN_LIST languages)
    target_compile_features(${target} PRIVATE hip_std_17)
  else()
    target_compile_features(${target} PRIVATE cxx_std_17)
  endif()
  target_include_directories(${target} PRIVATE "${out_dir}"
    "$<TARGET_PROPERTY:tilec::runtime,INTERFACE_INCLUDE_DIRECTORIES>")
endfunction()

cmake_policy(POP)
