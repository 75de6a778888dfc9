# Refuses a student whose own objects define a function the harness times or
# checks with: a C library or libstdc++ clock, the scheduler's counters, a CUDA
# runtime or driver event or synchronisation, CUPTI, or a linker wrapper of any
# function (--wrap's __wrap_<name>). Linked into the bench, such a definition is
# the one every caller reaches. The HOST harness reads its clocks by system
# call, out of reach; the rest is refused here, at build time, by name.
#
#   cmake -DNM=<nm> -DOPERATOR=<name> -DCHECK=<executable> -DOBJECTS=<object;...> -P ForgeStudentSymbols.cmake
#
# Run after the student's link check links (ForgeOperator.cmake). A refusal
# removes that executable, CHECK, so that the next build links and checks
# again, with any generator, instead of finding it up to date.
cmake_minimum_required(VERSION 3.25)

if(NOT NM)
  file(REMOVE "${CHECK}")
  message(FATAL_ERROR "forge_add_operator(${OPERATOR}): no nm (CMAKE_NM) to list the student's symbols with; "
    "install binutils.")
endif()

# Exact names, and prefixes ending in *.
set(guarded
  clock_gettime __clock_gettime clock_gettime64 __clock_gettime64 gettimeofday __gettimeofday time clock
  timespec_get clock_getcpuclockid pthread_getcpuclockid getrusage __getrusage times
  syscall pread pread64 __pread64 read __read open open64 openat openat64 __open __open64
  _ZNSt6chrono3_V212steady_clock3nowEv _ZNSt6chrono3_V212system_clock3nowEv
  _ZNSt6chrono12steady_clock3nowEv _ZNSt6chrono12system_clock3nowEv
  cudaEvent* cudaStreamSynchronize* cudaDeviceSynchronize* cudaStreamWaitEvent* cudaProfilerStart* cudaProfilerStop*
  cuEvent* cuStreamSynchronize* cuCtxSynchronize* cuStreamWaitEvent* cuGetProcAddress* cudaGetDriverEntryPoint*
  cupti* __wrap_*)

# One alternation: "cudaEvent*" matches any name it starts.
list(TRANSFORM guarded REPLACE "\\*$" "[^ \n]*")
list(JOIN guarded "|" alternatives)
set(offenders "")
foreach(object IN LISTS OBJECTS)
  execute_process(COMMAND "${NM}" --defined-only --extern-only --format=posix "${object}"
    RESULT_VARIABLE result OUTPUT_VARIABLE listing ERROR_VARIABLE errors)
  if(NOT result EQUAL 0)
    file(REMOVE "${CHECK}")
    message(FATAL_ERROR "forge_add_operator(${OPERATOR}): ${NM} could not list the symbols of ${object}:\n${errors}")
  endif()
  # posix format, a line a symbol: "<name> <type> <value> <size>".
  string(REGEX MATCHALL "(^|\n)(${alternatives}) [A-Za-z] " lines "${listing}")
  cmake_path(GET object FILENAME file)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^\n?([^ ]+) .*$" "\\1" symbol "${line}")
    list(APPEND offenders "${symbol} (in ${file})")
  endforeach()
endforeach()

if(offenders)
  file(REMOVE "${CHECK}")
  list(REMOVE_DUPLICATES offenders)
  list(JOIN offenders ", " offenders)
  message(FATAL_ERROR "forge_add_operator(${OPERATOR}): the student defines ${offenders}, a function the "
    "harness times or checks with. Linked into the bench, the student's definition is the one every caller "
    "reaches, the harness's own calls included, so it could change the reading. Rename the student's function "
    "(it must not take the name of a C library, C++ library, CUDA or CUPTI function), or drop the "
    "-Wl,--wrap that calls it. (README.md, Threat model)")
endif()
