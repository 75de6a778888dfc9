# A CTest dashboard run: configure, build, test, submit to CDash.
#
#   ctest -DFORGE_CDASH_URL="https://cdash.example.org/submit.php?project=Kernels" \
#         -S /path/to/ForgeDashboard.cmake -VV
#
# Variables (-D before -S):
#   FORGE_CDASH_URL      the CDash submit URL (required)
#   FORGE_SOURCE_DIR     the project to build (default: this ForgeKernel source tree,
#                        when the script is run from it)
#   FORGE_BINARY_DIR     its build directory (default: <source>/build/dashboard)
#   FORGE_PRESET         a configure preset of the project (e.g. default, gpu);
#                        otherwise a Ninja build with FORGE_CONFIGURE_OPTIONS
#   FORGE_CONFIGURE_OPTIONS  extra cmake arguments, a list (e.g. -DCMAKE_PREFIX_PATH=/opt/forge)
#   FORGE_TEST_LABEL     run only the tests with this label (e.g. forge)
#   FORGE_RESOURCE_SPEC_FILE  a CTest resource spec (`forge resource-spec -o gpus.json`):
#                        each CUDA bench then gets a GPU of its own
#   FORGE_PARALLEL       tests run at once (default 1: benches time better alone)
#   FORGE_MODEL          Experimental (default), Continuous or Nightly
#   FORGE_GPU_TYPE       the GPU the benches run on, in the build name (default:
#                        the first GPU nvidia-smi names here; none without one).
#                        Set it where the benches run elsewhere (a Slurm
#                        partition's GPUs, FORGE_BENCH_LAUNCHER), e.g. H100
#   FORGE_SITE, FORGE_BUILD_NAME  override the names below
#
# Environment (never -D: a command line is visible to every user of the machine):
#   FORGE_CDASH_TOKEN    a bearer token, for a CDash project that accepts only
#                        authenticated submissions: sent with every part as the
#                        HTTP header "Authorization: Bearer <token>", and never
#                        printed (the submit step runs QUIET when it is set)
#
# CDash plots a test's measurements (raw_ratio, credited_ratio, reference_ms,
# student_ms, the priced fractions of each forge.<op>.credit test) over the
# builds that share a site and a build name. Both are therefore stable: the
# site is the host name, the build name says the system, processor, preset and
# GPU type (so runs on different GPUs never share a graph), and neither carries
# a date or a commit.
cmake_minimum_required(VERSION 3.21)

if(NOT FORGE_CDASH_URL)
  message(FATAL_ERROR "ForgeDashboard: give the CDash submit URL: "
    "ctest -DFORGE_CDASH_URL=https://<cdash>/submit.php?project=<project> -S ${CMAKE_CURRENT_LIST_FILE}")
endif()

if(DEFINED FORGE_CDASH_TOKEN)
  message(FATAL_ERROR "ForgeDashboard: the CDash token was given with -DFORGE_CDASH_TOKEN, where every "
    "process listing shows it. Pass it in the environment instead, e.g. from your CI's secret store: "
    "FORGE_CDASH_TOKEN=<token> ctest -S ${CMAKE_CURRENT_LIST_FILE} ... Nothing was built or submitted.")
endif()

if(NOT FORGE_SOURCE_DIR)
  cmake_path(GET CTEST_SCRIPT_DIRECTORY PARENT_PATH FORGE_SOURCE_DIR)
  if(NOT EXISTS "${FORGE_SOURCE_DIR}/CMakeLists.txt")
    message(FATAL_ERROR "ForgeDashboard: give the project to build: -DFORGE_SOURCE_DIR=<dir>")
  endif()
endif()
cmake_path(ABSOLUTE_PATH FORGE_SOURCE_DIR NORMALIZE)
if(NOT FORGE_BINARY_DIR)
  set(FORGE_BINARY_DIR "${FORGE_SOURCE_DIR}/build/dashboard")
endif()
cmake_path(ABSOLUTE_PATH FORGE_BINARY_DIR NORMALIZE)
if(NOT FORGE_MODEL)
  set(FORGE_MODEL Experimental)
endif()
if(NOT FORGE_PARALLEL)
  set(FORGE_PARALLEL 1)
endif()

if(FORGE_SITE)
  set(CTEST_SITE "${FORGE_SITE}")
else()
  cmake_host_system_information(RESULT CTEST_SITE QUERY HOSTNAME)
endif()
if(FORGE_BUILD_NAME)
  set(CTEST_BUILD_NAME "${FORGE_BUILD_NAME}")
else()
  set(CTEST_BUILD_NAME "${CMAKE_HOST_SYSTEM_NAME}-${CMAKE_HOST_SYSTEM_PROCESSOR}")
  if(FORGE_PRESET)
    string(APPEND CTEST_BUILD_NAME "-${FORGE_PRESET}")
  endif()
  if(NOT DEFINED FORGE_GPU_TYPE)
    execute_process(COMMAND nvidia-smi --query-gpu=name --format=csv,noheader
      RESULT_VARIABLE gpu_query OUTPUT_VARIABLE gpu_names ERROR_QUIET)
    if(gpu_query EQUAL 0)
      string(REGEX REPLACE "\n.*" "" FORGE_GPU_TYPE "${gpu_names}")
    endif()
  endif()
  string(STRIP "${FORGE_GPU_TYPE}" gpu_type)
  string(REGEX REPLACE "[^A-Za-z0-9_.+]+" "_" gpu_type "${gpu_type}")
  if(gpu_type)
    string(APPEND CTEST_BUILD_NAME "-${gpu_type}")
  endif()
endif()

set(CTEST_SOURCE_DIRECTORY "${FORGE_SOURCE_DIR}")
set(CTEST_BINARY_DIRECTORY "${FORGE_BINARY_DIR}")
if(FORGE_PRESET)
  set(configure --preset "${FORGE_PRESET}")
else()
  set(configure -G Ninja)
endif()
list(JOIN FORGE_CONFIGURE_OPTIONS "\" \"" options)
if(options)
  set(options "\"${options}\"")
endif()
list(JOIN configure " " configure)
set(CTEST_CONFIGURE_COMMAND
  "\"${CMAKE_COMMAND}\" ${configure} -S \"${FORGE_SOURCE_DIR}\" -B \"${FORGE_BINARY_DIR}\" ${options}")
set(CTEST_BUILD_COMMAND "\"${CMAKE_COMMAND}\" --build \"${FORGE_BINARY_DIR}\"")

ctest_start(${FORGE_MODEL})
ctest_configure(RETURN_VALUE configure_result)
set(failed "")
if(NOT configure_result EQUAL 0)
  list(APPEND failed configure)
else()
  ctest_build(RETURN_VALUE build_result NUMBER_ERRORS build_errors)
  if(NOT build_result EQUAL 0 OR build_errors GREATER 0)
    list(APPEND failed build)
  endif()
  set(test_args PARALLEL_LEVEL ${FORGE_PARALLEL})
  if(FORGE_TEST_LABEL)
    list(APPEND test_args INCLUDE_LABEL "${FORGE_TEST_LABEL}")
  endif()
  if(FORGE_RESOURCE_SPEC_FILE)
    list(APPEND test_args RESOURCE_SPEC_FILE "${FORGE_RESOURCE_SPEC_FILE}")
  endif()
  ctest_test(${test_args} RETURN_VALUE test_result)
  if(NOT test_result EQUAL 0)
    list(APPEND failed test)
  endif()
endif()

set(submit_args "")
if(NOT "$ENV{FORGE_CDASH_TOKEN}" STREQUAL "")
  # QUIET: under `ctest --debug`, ctest_submit prints the HTTP headers it sends, the token with them.
  set(submit_args HTTPHEADER "Authorization: Bearer $ENV{FORGE_CDASH_TOKEN}" QUIET)
  message(STATUS "ForgeDashboard: submitting with the bearer token from FORGE_CDASH_TOKEN")
endif()
ctest_submit(SUBMIT_URL "${FORGE_CDASH_URL}" ${submit_args} RETURN_VALUE submit_result)
if(NOT submit_result EQUAL 0)
  list(APPEND failed submit)
endif()
if(failed)
  set(hint "see the output above and the dashboard")
  if("submit" IN_LIST failed)
    string(APPEND hint "; a submission refused with HTTP 401 or 403 needs a valid token in FORGE_CDASH_TOKEN")
  endif()
  list(JOIN failed ", " failed)
  message(FATAL_ERROR "ForgeDashboard: ${CTEST_SITE} / ${CTEST_BUILD_NAME}: ${failed} failed (${hint}).")
endif()
message(STATUS "ForgeDashboard: submitted ${CTEST_SITE} / ${CTEST_BUILD_NAME} to ${FORGE_CDASH_URL}")
