# ForgeKernel's CMake API: forge_add_operator(), documented in README.md beside
# this file (cmake/ in the source tree, lib/cmake/ForgeKernel/ when installed).
#
# Included by ForgeKernel's own CMakeLists.txt (a source build, also reached
# through add_subdirectory or FetchContent) and by the installed package's
# ForgeKernelConfig.cmake. Both give the same function and behaviour; they
# differ only in where the templates are and where the `forge` tool comes from
# (see ForgeTool.cmake).
#
# State lives in global properties, not variables: the function is called from
# the user's directories, which do not see variables set in ours.
#
# Policies: a function runs under the policies in force where it was defined.
# Without the block below, the installed package's functions would run under
# whatever policies the project that finds it chose, and a source build's under
# ForgeKernel's own. The block pins them (for the modules included from it too)
# to the CMake versions ForgeKernel is tested with, in both modes alike.
include_guard(GLOBAL)

if(CMAKE_VERSION VERSION_LESS 3.25)
  message(FATAL_ERROR "ForgeKernel needs CMake 3.25 or newer (this is ${CMAKE_VERSION}): "
    "its modules pin their policies with block(SCOPE_FOR POLICIES), defer validation with "
    "cmake_language(DEFER) and scaffold with file(RENAME ... NO_REPLACE).")
endif()

block(SCOPE_FOR POLICIES)
cmake_policy(VERSION 3.25)

# The installed config sets _forge_package_templates before including this file;
# a source tree keeps the templates beside cmake/ and builds the tool itself.
# Whether forge::bench has its CUDA backend (_FORGE_BENCH_CUDA) comes from the
# package's build, or from this tree's FORGE_ENABLE_CUDA.
if(DEFINED _forge_package_templates)
  set_property(GLOBAL PROPERTY _FORGE_TEMPLATES_DIR "${_forge_package_templates}")
  set_property(GLOBAL PROPERTY _FORGE_TOOL_SOURCE_DIR "")
  set_property(GLOBAL PROPERTY _FORGE_BENCH_CUDA "${_forge_package_cuda}")
  set_property(GLOBAL PROPERTY _FORGE_PACKAGE_DIR "${CMAKE_CURRENT_LIST_DIR}")
else()
  cmake_path(GET CMAKE_CURRENT_LIST_DIR PARENT_PATH _forge_root)
  set_property(GLOBAL PROPERTY _FORGE_TEMPLATES_DIR "${_forge_root}/templates")
  set_property(GLOBAL PROPERTY _FORGE_TOOL_SOURCE_DIR "${_forge_root}")
  set_property(GLOBAL PROPERTY _FORGE_BENCH_CUDA "${FORGE_ENABLE_CUDA}")
  set_property(GLOBAL PROPERTY _FORGE_PACKAGE_DIR "")
  unset(_forge_root)
endif()

set(FORGE_EXECUTABLE "" CACHE FILEPATH
  "A built `forge` to validate contracts with at configure time (empty: the package's, or one built from source into the build tree)")
option(FORGE_BENCH_QUICK "Run the operator benches with --quick (fewer samples: for CI, not for ratios you keep)" OFF)
set(FORGE_BENCH_PRECISION "" CACHE STRING
  "Each workload's precision target, a fraction (0.02: +/-2%); empty: the bench's own (0.01). A card's PRECISION wins")
set(FORGE_BENCH_TIME_CAP "" CACHE STRING
  "Each workload's time cap in seconds; empty: the bench's own (4; 0.3 with --quick). A card's TIME_CAP wins")

set(FORGE_BENCH_LAUNCHER "" CACHE STRING
  "A command (a list) before every bench's, e.g. srun;--gres=gpu:1;--exclusive to run each bench as a Slurm job. A card's LAUNCHER wins")

include("${CMAKE_CURRENT_LIST_DIR}/ForgeTool.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ForgeScaffold.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ForgeValidate.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ForgeTests.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ForgeOperator.cmake")

# Everything that needs the whole project (one `forge check` over every
# contract, the forge.build fixture) runs once, when the top-level directory
# has been read: every forge_add_operator() call has happened by then.
function(_forge_finalize)
  _forge_check_testing_enabled()
  _forge_validate()
  _forge_add_build_test()
  _forge_write_ctest_custom()
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _forge_finalize)

endblock()
