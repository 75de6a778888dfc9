# The `forge` program that validates contracts while CMake configures.
#
# In order: FORGE_EXECUTABLE when the user points at one; the installed
# package's forge::forge; in a source build (add_subdirectory, FetchContent, or
# ForgeKernel itself) a copy built at configure time into the build tree by a
# small nested build of this source tree. The nested build is configured once
# and then only re-run, which is a no-op until the tool's sources change.
include_guard(GLOBAL)

# Sets `out` to the path of a runnable forge, building it first when needed.
function(_forge_configure_tool out)
  if(FORGE_EXECUTABLE)
    if(NOT EXISTS "${FORGE_EXECUTABLE}" OR IS_DIRECTORY "${FORGE_EXECUTABLE}")
      message(FATAL_ERROR "FORGE_EXECUTABLE is '${FORGE_EXECUTABLE}', which is not a file: "
        "point it at a built `forge`, or clear it to use the package's own.")
    endif()
    set(${out} "${FORGE_EXECUTABLE}" PARENT_SCOPE)
    return()
  endif()

  get_property(installed GLOBAL PROPERTY _FORGE_PACKAGE_TOOL)
  if(installed)
    set(${out} "${installed}" PARENT_SCOPE)
    return()
  endif()

  get_property(source_dir GLOBAL PROPERTY _FORGE_TOOL_SOURCE_DIR)
  _forge_build_tool("${source_dir}" tool)
  set(${out} "${tool}" PARENT_SCOPE)
endfunction()

# The nested build: ForgeKernel's own project with everything but the tool off.
function(_forge_build_tool source_dir out)
  set(build_dir "${CMAKE_BINARY_DIR}/_forge/tool")
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    set(tool "${build_dir}/bin/Release/forge${CMAKE_EXECUTABLE_SUFFIX}")
  else()
    set(tool "${build_dir}/bin/forge${CMAKE_EXECUTABLE_SUFFIX}")
  endif()

  if(NOT EXISTS "${build_dir}/CMakeCache.txt")
    message(STATUS "ForgeKernel: building the forge tool into ${build_dir} "
      "(once: later configures only bring it up to date)")
    set(generator_args -G "${CMAKE_GENERATOR}")
    if(CMAKE_GENERATOR_PLATFORM)
      list(APPEND generator_args -A "${CMAKE_GENERATOR_PLATFORM}")
    endif()
    if(CMAKE_GENERATOR_TOOLSET)
      list(APPEND generator_args -T "${CMAKE_GENERATOR_TOOLSET}")
    endif()
    if(CMAKE_MAKE_PROGRAM)
      list(APPEND generator_args "-DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}")
    endif()
    # Find the dependencies where this build found them.
    foreach(where IN ITEMS CMAKE_TOOLCHAIN_FILE CMAKE_PREFIX_PATH)
      if(${where})
        list(JOIN ${where} "\\;" value)
        list(APPEND generator_args "-D${where}=${value}")
      endif()
    endforeach()
    # A unity build, whatever the outer build chose: the user's first configure
    # waits on this one (on 2 cores, 43 s instead of 96 s).
    execute_process(
      COMMAND "${CMAKE_COMMAND}" -S "${source_dir}" -B "${build_dir}" ${generator_args}
        "-DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}"
        -DCMAKE_BUILD_TYPE=Release -DFORGE_UNITY_BUILD=ON
        "-DCMAKE_RUNTIME_OUTPUT_DIRECTORY=${build_dir}/bin"
        -DFORGE_BUILD_TESTS=OFF -DFORGE_BUILD_EXAMPLES=OFF -DFORGE_BUILD_BENCHMARKS=OFF
        -DFORGE_ENABLE_CUDA=OFF -DFORGE_SANITIZE=OFF -DFORGE_WARNINGS_AS_ERRORS=OFF
      RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
    if(NOT result EQUAL 0)
      file(REMOVE "${build_dir}/CMakeCache.txt")
      message(FATAL_ERROR "ForgeKernel: configuring the forge tool in ${build_dir} failed:\n${log}")
    endif()
  endif()

  # On every core unless CMAKE_BUILD_PARALLEL_LEVEL says otherwise: a Makefile
  # build runs one job by default, and the user's first configure waits on this
  # one (its 12 unity batches: 80-84 s on 2 cores in one job, 57-66 s in two).
  set(parallel_args)
  if("$ENV{CMAKE_BUILD_PARALLEL_LEVEL}" STREQUAL "")
    cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
    set(parallel_args --parallel ${cores})
  endif()
  execute_process(
    COMMAND "${CMAKE_COMMAND}" --build "${build_dir}" --target forge --config Release ${parallel_args}
    RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "ForgeKernel: building the forge tool in ${build_dir} failed:\n${log}\n"
      "Fix the build error, or set FORGE_EXECUTABLE to a forge built elsewhere.")
  endif()
  set(${out} "${tool}" PARENT_SCOPE)
endfunction()

# The forge the tests run: the project's forge::forge target (built by the
# forge.build fixture in a source build, imported from the package otherwise).
function(_forge_test_tool out)
  if(TARGET forge::forge)
    set(${out} "$<TARGET_FILE:forge::forge>" PARENT_SCOPE)
  else()
    _forge_configure_tool(tool)
    set(${out} "${tool}" PARENT_SCOPE)
  endif()
endfunction()
