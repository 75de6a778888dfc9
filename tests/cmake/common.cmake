# Helpers of the CMake integration tests (cmake -P scripts): throwaway consumer
# projects under the build tree that use forge_add_operator() the way a user
# does, through the installed package or through add_subdirectory.
#
# Every script gets (-D): FORGE_SOURCE_DIR (this repository), FORGE_PREFIX (the
# package installed by forge.cmake.install), WORK_DIR (its own scratch
# directory), MODE (installed | subdirectory), CXX_COMPILER, CUDA_COMPILER
# (empty without nvcc), FORGE_CUDA (whether the package's forge::bench has the
# CUDA backend: FORGE_ENABLE_CUDA) and CONSUMER_FLAGS (compile and link flags,
# e.g. the sanitizers the package was built with).
cmake_minimum_required(VERSION 3.25)

foreach(input IN ITEMS FORGE_SOURCE_DIR FORGE_PREFIX WORK_DIR MODE CXX_COMPILER)
  if(NOT DEFINED ${input})
    message(FATAL_ERROR "${CMAKE_SCRIPT_MODE_FILE}: run through CTest (${input} is not set)")
  endif()
endforeach()
set(FORGE_TOOL "${FORGE_PREFIX}/bin/forge")

# Fails the test with `message`.
function(fail message)
  message(FATAL_ERROR "FAILED: ${message}")
endfunction()

function(expect_match text regex what)
  if(NOT text MATCHES "${regex}")
    fail("${what}: no match for /${regex}/ in:\n${text}")
  endif()
endfunction()

function(expect_no_match text regex what)
  if(text MATCHES "${regex}")
    fail("${what}: unexpected match for /${regex}/ in:\n${text}")
  endif()
endfunction()

# Writes a consumer project in `dir` whose CMakeLists.txt gets ForgeKernel the
# MODE's way and then runs `body`. LANGUAGES defaults to CXX; MINIMUM (the
# project's cmake_minimum_required) to 3.25; PREAMBLE goes before ForgeKernel is found;
# NO_TESTING leaves out the enable_testing() every other consumer has.
function(write_consumer dir body)
  cmake_parse_arguments(PARSE_ARGV 2 arg "NO_TESTING" "MINIMUM;PREAMBLE" "LANGUAGES")
  if(NOT arg_LANGUAGES)
    set(arg_LANGUAGES CXX)
  endif()
  if(NOT arg_MINIMUM)
    set(arg_MINIMUM 3.25)
  endif()
  list(JOIN arg_LANGUAGES " " languages)
  set(testing "enable_testing()")
  if(arg_NO_TESTING)
    set(testing "")
  endif()
  if(MODE STREQUAL "installed")
    set(use_forge "find_package(ForgeKernel CONFIG REQUIRED)")
  else()
    set(use_forge "add_subdirectory(\"${FORGE_SOURCE_DIR}\" forgekernel)")
  endif()
  file(MAKE_DIRECTORY "${dir}")
  file(WRITE "${dir}/CMakeLists.txt" "cmake_minimum_required(VERSION ${arg_MINIMUM})
project(consumer LANGUAGES ${languages})
${testing}
${arg_PREAMBLE}
${use_forge}
${body}
")
endfunction()

# Configures `source` into `build`; the exit code and the whole output come back.
# Extra arguments go to cmake. The consumer validates with the installed forge
# either way, so no test builds the tool again. CONSUMER_GENERATOR (default
# Ninja), CONSUMER_QUICK (default ON: -DFORGE_BENCH_QUICK=ON) and
# CONSUMER_CUDA_ARCHITECTURES (default 80; empty: none given) may be set first.
set(CONSUMER_GENERATOR Ninja)
set(CONSUMER_QUICK ON)
set(CONSUMER_CUDA_ARCHITECTURES 80)
function(configure_consumer source build result_var log_var)
  set(args -G "${CONSUMER_GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
  if(CONSUMER_QUICK)
    list(APPEND args -DFORGE_BENCH_QUICK=ON)
  endif()
  if(MODE STREQUAL "installed")
    list(APPEND args "-DCMAKE_PREFIX_PATH=${FORGE_PREFIX}")
  else()
    list(APPEND args "-DFORGE_EXECUTABLE=${FORGE_TOOL}")
  endif()
  if(CUDA_COMPILER)
    list(APPEND args "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}")
    if(CONSUMER_CUDA_ARCHITECTURES)
      string(REPLACE ";" "\\;" architectures "${CONSUMER_CUDA_ARCHITECTURES}")  # one argument
      list(APPEND args "-DCMAKE_CUDA_ARCHITECTURES=${architectures}")
    endif()
  endif()
  if(CONSUMER_FLAGS)
    list(APPEND args "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${source}" -B "${build}" ${args} ${ARGN}
    RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
  set(${result_var} "${result}" PARENT_SCOPE)
  set(${log_var} "${log}" PARENT_SCOPE)
endfunction()

# Configures and fails the test unless configure succeeds.
function(configure_ok source build)
  configure_consumer("${source}" "${build}" result log ${ARGN})
  if(NOT result EQUAL 0)
    fail("configure of ${source} failed (exit ${result}):\n${log}")
  endif()
endfunction()

# A declared contract for the scaffold's placeholder operator (y = 2 * x).
function(declare_placeholder card)
  file(WRITE "${card}/window.toml" [=[
schema_version = 1

[reference]
window = "y = 2 * x"
inputs = ["x"]
outputs = ["y"]

[student]
window = "y = 2 * x"
inputs = ["x"]
outputs = ["y"]
]=])
endfunction()

# Every file under `dir`, relative to it, with its SHA-256: a snapshot to compare.
function(snapshot dir out)
  file(GLOB_RECURSE files LIST_DIRECTORIES true RELATIVE "${dir}" "${dir}/*")
  list(SORT files)
  set(state "")
  foreach(file IN LISTS files)
    if(IS_DIRECTORY "${dir}/${file}")
      string(APPEND state "${file}/\n")
    else()
      file(SHA256 "${dir}/${file}" hash)
      string(APPEND state "${file} ${hash}\n")
    endif()
  endforeach()
  set(${out} "${state}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
