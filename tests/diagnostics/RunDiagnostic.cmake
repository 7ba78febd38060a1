# Runs the built tilec on one bad input and pins its diagnostics (cmake -P script, one per case).
#   -DTILEC=<tilec binary> -DCASE=<case file> -DWORK=<scratch directory>
# Directives in the case file (comment lines):
#   // ARG: <argument>      one command-line argument (repeatable, in order, before the input)
#   // EXPECT: <line>       an exact line that stderr must contain (repeatable, in order)
#   // STDOUT: <line>       an exact line that stdout must contain
#   // EXIT: <code>         expected exit code (default 1)
#   // NO-INPUT             do not pass the case file itself as the input
#   // PLAIN                do not add `-o out.cu` and skip the output-file checks
# Checks: exit code, the lines, and (unless PLAIN) that a pre-existing output file is left
# byte-identical, that no temporary is left behind, and that without -o no default output appears.
cmake_minimum_required(VERSION 3.20)

get_filename_component(name "${CASE}" NAME)
get_filename_component(stem "${CASE}" NAME_WE)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
# ';' separates CMake list items: keep it as a placeholder while lines are list items.
file(READ "${CASE}" content)
string(REPLACE ";" "<semicolon>" content "${content}")
string(REPLACE "\n" ";" lines "${content}")

set(args)
set(expect)
set(stdoutExpect)
set(exitCode 1)
set(noInput FALSE)
set(plain FALSE)
foreach(l IN LISTS lines)
  if(l MATCHES "^// ARG: (.*)$")
    list(APPEND args "${CMAKE_MATCH_1}")
  elseif(l MATCHES "^// EXPECT: (.*)$")
    list(APPEND expect "${CMAKE_MATCH_1}")
  elseif(l MATCHES "^// STDOUT: (.*)$")
    list(APPEND stdoutExpect "${CMAKE_MATCH_1}")
  elseif(l MATCHES "^// EXIT: ([0-9]+)$")
    set(exitCode "${CMAKE_MATCH_1}")
  elseif(l MATCHES "^// NO-INPUT$")
    set(noInput TRUE)
  elseif(l MATCHES "^// PLAIN$")
    set(plain TRUE)
  endif()
endforeach()

set(input)
if(NOT noInput)
  configure_file("${CASE}" "${WORK}/${name}" COPYONLY)
  set(input "${name}")
endif()

set(failures "")
macro(fail msg)
  string(APPEND failures "  ${msg}\n")
endmacro()

# Exact lines, in order.
function(check_lines text wanted what)
  set(pos 0)
  string(REPLACE ";" "<semicolon>" text "${text}")
  set(haystack "\n${text}")
  foreach(w IN LISTS wanted)
    string(SUBSTRING "${haystack}" ${pos} -1 rest)
    string(FIND "${rest}" "\n${w}\n" at)
    if(at EQUAL -1)
      set(failures "${failures}  ${what} lacks the line (in order): ${w}\n" PARENT_SCOPE)
      return()
    endif()
    math(EXPR pos "${pos} + ${at} + 1")
  endforeach()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

set(previous "// previous output: a failed run must leave this file alone\n")
set(outArgs)
if(NOT plain)
  file(WRITE "${WORK}/out.cu" "${previous}")
  set(outArgs -o out.cu)
endif()

execute_process(COMMAND "${TILEC}" ${args} ${input} ${outArgs}
                WORKING_DIRECTORY "${WORK}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL exitCode)
  fail("exit code ${rc}, expected ${exitCode}")
endif()
check_lines("${err}" "${expect}" "stderr")
check_lines("${out}" "${stdoutExpect}" "stdout")

if(NOT plain)
  file(READ "${WORK}/out.cu" now)
  if(NOT now STREQUAL previous)
    fail("the pre-existing output file was changed")
  endif()
  file(GLOB left LIST_DIRECTORIES true RELATIVE "${WORK}" "${WORK}/*" "${WORK}/.*")
  list(REMOVE_ITEM left "${name}" "out.cu" "." "..")
  if(left)
    fail("files left behind: ${left}")
  endif()
  # Without -o: the default output (<stem>.cu) must not appear either.
  execute_process(COMMAND "${TILEC}" ${args} ${input}
                  WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc2 OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc2 STREQUAL exitCode)
    fail("exit code ${rc2} without -o, expected ${exitCode}")
  endif()
  file(GLOB left LIST_DIRECTORIES true RELATIVE "${WORK}" "${WORK}/*" "${WORK}/.*")
  list(REMOVE_ITEM left "${name}" "out.cu" "." "..")
  if(left)
    fail("files written without -o: ${left}")
  endif()
endif()

if(failures)
  message(FATAL_ERROR "${name}:\n${failures}--- stderr ---\n${err}--- stdout ---\n${out}")
endif()
