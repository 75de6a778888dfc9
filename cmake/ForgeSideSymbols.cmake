# What a card's sides may link with, checked when the bench links (a PRE_LINK
# command of forge_<name>_bench, ForgeOperator.cmake's _forge_side_checks):
#
# - the student's objects may use the harness, LIBRARIES and STUDENT_LIBRARIES:
#   a symbol they leave undefined that only the reference, the prep step, the
#   bench or REFERENCE_LIBRARIES define is refused by name;
# - the prep step's objects may use the reference, the harness, LIBRARIES and
#   REFERENCE_LIBRARIES: one that only the student, the bench or
#   STUDENT_LIBRARIES define is refused;
# - the student's objects must not define a function the harness times or checks
#   with: a C library or libstdc++ clock, the scheduler's counters, a CUDA
#   runtime or driver event or synchronisation, CUPTI, or a linker wrapper of
#   any function (--wrap's __wrap_<name>). Linked into the bench, such a
#   definition is the one every caller reaches. The HOST harness reads its
#   clocks by system call, out of reach; the rest is refused here, by name.
#
# The bench links every side's libraries, so its own link could not tell the
# first two; they are what linking each side on its own would say, read with nm
# instead of linking. A refusal stops the bench's link, so the next build checks
# again, with any generator, until the cause is gone.
#
#   cmake -DNM=<nm> -DOPERATOR=<name> -DCOMPARE=ON|OFF -DSTUDENT=<objects> -DPREP=<objects>
#         -DREFERENCE=<objects> -DBENCH=<objects> -DHARNESS=<files> -DLIBRARIES=<files>
#         -DREFERENCE_LIBRARIES=<files> -DSTUDENT_LIBRARIES=<files> -P ForgeSideSymbols.cmake
#
# COMPARE OFF (a card whose libraries could not be read as files, which links
# each side on its own instead) leaves only the guarded functions.
cmake_minimum_required(VERSION 3.25)

set(context "forge_add_operator(${OPERATOR})")
if(NOT NM)
  message(FATAL_ERROR "${context}: no nm (CMAKE_NM) to list the sides' symbols with; install binutils.")
endif()

# nm's listing of `file`'s external symbols, "\n<name> <type> ..." a line, as
# `out`: `which` is defined or undefined.
function(forge_symbols file which out)
  if(file STREQUAL "")
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(arguments --extern-only --format=posix --${which}-only)
  if(file MATCHES "\\.so(\\.[0-9.]*)?$")
    list(PREPEND arguments -D)
  endif()
  execute_process(COMMAND "${NM}" ${arguments} "${file}"
    RESULT_VARIABLE result OUTPUT_VARIABLE listing ERROR_VARIABLE errors)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${context}: ${NM} could not list the symbols of ${file}:\n${errors}")
  endif()
  set(${out} "\n${listing}" PARENT_SCOPE)
endfunction()

# Whether `listing` defines `symbol` (a shared library's may carry a version: name@VERSION).
function(forge_defines listing symbol out)
  string(FIND "${listing}" "\n${symbol} " at)
  if(at EQUAL -1)
    string(FIND "${listing}" "\n${symbol}@" at)
  endif()
  if(at EQUAL -1)
    set(${out} FALSE PARENT_SCOPE)
  else()
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

# `symbols` as a C++ programmer reads them (c++filt, where there is one).
function(forge_demangle out)
  set(names ${ARGN})
  cmake_path(GET NM PARENT_PATH nm_dir)
  find_program(FORGE_CXXFILT NAMES c++filt llvm-cxxfilt HINTS "${nm_dir}")
  if(FORGE_CXXFILT AND names)
    execute_process(COMMAND "${FORGE_CXXFILT}" ${names} RESULT_VARIABLE result OUTPUT_VARIABLE demangled
      OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(result EQUAL 0)
      string(REPLACE ";" "\\;" demangled "${demangled}")
      string(REPLACE "\n" ";" names "${demangled}")
    endif()
  endif()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# Refuses a `side` (student, prep) whose objects leave undefined a symbol that
# only the `foreign_groups` define (each a variable naming files; its text in
# `<group>_text`) and that neither its own objects nor the `allowed` files do.
function(forge_check_side side objects allowed foreign_groups may_use fix)
  set(defined "")
  set(undefined "")
  foreach(object IN LISTS objects)
    forge_symbols("${object}" defined listing)
    string(APPEND defined "${listing}")
    forge_symbols("${object}" undefined listing)
    string(REGEX MATCHALL "\n[^ \n]+ U" lines "${listing}")
    cmake_path(GET object FILENAME file)
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^\n([^ ]+) U$" "\\1" symbol "${line}")
      list(APPEND undefined "${symbol}" "${file}")
    endforeach()
  endforeach()
  # Undefined in one object and defined by none: what the side needs from elsewhere.
  set(needed "")
  list(LENGTH undefined length)
  set(i 0)
  while(i LESS length)
    list(GET undefined ${i} symbol)
    math(EXPR j "${i} + 1")
    list(GET undefined ${j} file)
    math(EXPR i "${i} + 2")
    forge_defines("${defined}" "${symbol}" own)
    if(NOT own)
      list(APPEND needed "${symbol}" "${file}")
    endif()
  endwhile()
  if(NOT needed)
    return()
  endif()
  # Those that what the side may not use defines.
  set(offenders "")
  foreach(group IN LISTS foreign_groups)
    foreach(foreign IN LISTS ${group})
      forge_symbols("${foreign}" defined listing)
      cmake_path(GET foreign FILENAME foreign_file)
      list(LENGTH needed length)
      set(i 0)
      while(i LESS length)
        list(GET needed ${i} symbol)
        math(EXPR j "${i} + 1")
        list(GET needed ${j} file)
        math(EXPR i "${i} + 2")
        forge_defines("${listing}" "${symbol}" found)
        if(found)
          list(APPEND offenders "${symbol}" "${file}" "${${group}_text} (${foreign_file})")
        endif()
      endwhile()
    endforeach()
  endforeach()
  if(NOT offenders)
    return()
  endif()
  # ... unless what it may use defines them too (the link would take those).
  set(allowed_defined "")
  foreach(file IN LISTS allowed)
    forge_symbols("${file}" defined listing)
    string(APPEND allowed_defined "${listing}")
  endforeach()
  set(lines "")
  set(seen "")
  list(LENGTH offenders length)
  set(i 0)
  while(i LESS length)
    list(GET offenders ${i} symbol)
    math(EXPR j "${i} + 1")
    list(GET offenders ${j} file)
    math(EXPR j "${i} + 2")
    list(GET offenders ${j} where)
    math(EXPR i "${i} + 3")
    forge_defines("${allowed_defined}" "${symbol}" fine)
    if(fine OR "${symbol} ${file}" IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${symbol} ${file}")
    forge_demangle(shown "${symbol}")
    # Indented, so that CMake prints the line as it is, like the linker's.
    string(APPEND lines "  ${file}: undefined reference to `${shown}', defined only by ${where}\n")
  endwhile()
  if(lines STREQUAL "")
    return()
  endif()
  message(FATAL_ERROR "${context}: ${side} does not link on its own; ${may_use}. The bench links every "
    "side's libraries, so its own link would take what follows:\n${lines}${fix}")
endfunction()

if(COMPARE)
  set(REFERENCE_text "the reference")
  set(PREP_text "the prep step")
  set(STUDENT_text "the student")
  set(BENCH_text "the bench")
  set(REFERENCE_LIBRARIES_text "REFERENCE_LIBRARIES")
  set(STUDENT_LIBRARIES_text "STUDENT_LIBRARIES")
  if(STUDENT)
    string(CONCAT fix "Make the student call its own code. A library the student uses goes in STUDENT_LIBRARIES "
      "(in LIBRARIES for both sides), and code both sides use in a library of the project given to LIBRARIES "
      "(cmake/README.md, Libraries).")
    forge_check_side("the student" "${STUDENT}" "${HARNESS};${LIBRARIES};${STUDENT_LIBRARIES}"
      "REFERENCE;PREP;BENCH;REFERENCE_LIBRARIES"
      "it may use the harness, LIBRARIES and STUDENT_LIBRARIES only" "${fix}")
  endif()
  if(PREP)
    string(CONCAT fix "The prep step runs outside every timed window, and the student's code must not run there: "
      "make it call the reference's code, or a library of the project given to LIBRARIES or REFERENCE_LIBRARIES.")
    forge_check_side("the prep step" "${PREP}" "${REFERENCE};${HARNESS};${LIBRARIES};${REFERENCE_LIBRARIES}"
      "STUDENT;BENCH;STUDENT_LIBRARIES"
      "it may use the reference, the harness, LIBRARIES and REFERENCE_LIBRARIES only" "${fix}")
  endif()
endif()

if(NOT STUDENT)
  return()
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
foreach(object IN LISTS STUDENT)
  forge_symbols("${object}" defined listing)
  # posix format, a line a symbol: "<name> <type> <value> <size>".
  string(REGEX MATCHALL "\n(${alternatives}) [A-Za-z] " lines "${listing}")
  cmake_path(GET object FILENAME file)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^\n([^ ]+) .*$" "\\1" symbol "${line}")
    list(APPEND offenders "${symbol} (in ${file})")
  endforeach()
endforeach()

if(offenders)
  list(REMOVE_DUPLICATES offenders)
  list(JOIN offenders ", " offenders)
  message(FATAL_ERROR "${context}: the student defines ${offenders}, a function the "
    "harness times or checks with. Linked into the bench, the student's definition is the one every caller "
    "reaches, the harness's own calls included, so it could change the reading. Rename the student's function "
    "(it must not take the name of a C library, C++ library, CUDA or CUPTI function), or drop the "
    "-Wl,--wrap that calls it. (README.md, Threat model)")
endif()
