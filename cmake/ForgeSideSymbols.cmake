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
#         -DREFERENCE=<objects> -DBENCH=<objects> -DHARNESS=<files>
#         -DLIBRARIES=<names> -DLIBRARIES_<i>=<files of the i-th name> (likewise
#         REFERENCE_LIBRARIES and STUDENT_LIBRARIES) -P ForgeSideSymbols.cmake
#
# A library's names are as the user wrote them in forge_add_operator(), so a
# refusal names the library both ways: `libvendor.a (REFERENCE_LIBRARIES vendor)`.
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

# `symbols` as a C++ programmer reads them (c++filt, where there is one), as `out`:
# one call for them all; without c++filt, as nm gave them.
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

# The files of every library given as `keyword` (LIBRARIES, REFERENCE_LIBRARIES,
# STUDENT_LIBRARIES): ${keyword} lists the names as the user wrote them, and
# ${keyword}_<i> the files of the i-th.
function(forge_keyword_files keyword out)
  set(files "")
  set(i 0)
  foreach(name IN LISTS ${keyword})
    list(APPEND files ${${keyword}_${i}})
    math(EXPR i "${i} + 1")
  endforeach()
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

# Refuses a `side` (the student, the prep step) whose objects leave undefined a
# symbol that neither its own objects nor the `allowed` files define, and that
# what it may not use defines: the code in `foreign_code` (each a variable
# naming object files, its words in `<group>_text`), or a library given to
# `other` only (`keyword`: REFERENCE_LIBRARIES, STUDENT_LIBRARIES). The message
# names each symbol, the side's object that calls it and who defines it (a
# library by its file and by the name written in `keyword`); `may_use` says
# what the side may use, `code_fix` how to stop calling the others' code.
function(forge_check_side side objects allowed foreign_code keyword other may_use code_fix)
  # What the side's objects define, and what they leave undefined:
  # "<symbol> <object file>" a record (a symbol holds no space).
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
      list(APPEND undefined "${symbol} ${file}")
    endforeach()
  endforeach()
  # Undefined in one object and defined by none: what the side needs from elsewhere.
  set(needed "")
  foreach(record IN LISTS undefined)
    string(REGEX MATCH "^[^ ]+" symbol "${record}")
    forge_defines("${defined}" "${symbol}" own)
    if(NOT own)
      list(APPEND needed "${record}")
    endif()
  endforeach()
  if(NOT needed)
    return()
  endif()
  # Those that what the side may not use defines: "<symbol> <source> <object
  # file>" a record, <source> indexing `sources` (who defines it, in words)
  # and `kinds` ("code", or "library:<the library's name>").
  set(foreign "")
  set(sources "")
  set(kinds "")
  foreach(group IN LISTS foreign_code)
    foreach(file IN LISTS ${group})
      cmake_path(GET file FILENAME shown)
      list(APPEND foreign "${file}")
      list(APPEND sources "${${group}_text} (${shown})")
      list(APPEND kinds code)
    endforeach()
  endforeach()
  set(i 0)
  foreach(name IN LISTS ${keyword})
    foreach(file IN LISTS ${keyword}_${i})
      cmake_path(GET file FILENAME shown)
      list(APPEND foreign "${file}")
      list(APPEND sources "${shown} (${keyword} ${name})")
      list(APPEND kinds "library:${name}")
    endforeach()
    math(EXPR i "${i} + 1")
  endforeach()
  set(offenders "")
  set(source 0)
  foreach(file IN LISTS foreign)
    forge_symbols("${file}" defined listing)
    foreach(record IN LISTS needed)
      string(REGEX MATCH "^[^ ]+" symbol "${record}")
      forge_defines("${listing}" "${symbol}" found)
      if(found)
        string(REGEX REPLACE "^[^ ]+ " "" object "${record}")
        list(APPEND offenders "${symbol} ${source} ${object}")
      endif()
    endforeach()
    math(EXPR source "${source} + 1")
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
  set(refused "")
  set(symbols "")
  set(seen "")
  foreach(record IN LISTS offenders)
    string(REGEX MATCH "^([^ ]+) [0-9]+ (.*)$" matched "${record}")
    set(symbol "${CMAKE_MATCH_1}")
    forge_defines("${allowed_defined}" "${symbol}" fine)
    if(fine OR "${symbol} ${CMAKE_MATCH_2}" IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${symbol} ${CMAKE_MATCH_2}")
    list(APPEND refused "${record}")
    list(APPEND symbols "${symbol}")
  endforeach()
  if(NOT refused)
    return()
  endif()
  forge_demangle(shown ${symbols})
  # Lines indented, so that CMake prints them as they are, like the linker's.
  set(library_lines "")
  set(code_lines "")
  set(called "")
  foreach(record symbol IN ZIP_LISTS refused shown)
    string(REGEX MATCH "^[^ ]+ ([0-9]+) (.*)$" matched "${record}")
    list(GET sources ${CMAKE_MATCH_1} where)
    list(GET kinds ${CMAKE_MATCH_1} kind)
    set(line "  ${CMAKE_MATCH_2}: undefined reference to `${symbol}', defined only by ${where}\n")
    if(kind STREQUAL "code")
      string(APPEND code_lines "${line}")
    else()
      string(APPEND library_lines "${line}")
      string(REGEX REPLACE "^library:" "" library "${kind}")
      list(APPEND called "${library}")
    endif()
  endforeach()
  set(because "The bench links every side's libraries, so its own link would take what follows")
  if(library_lines)
    list(REMOVE_DUPLICATES called)
    list(LENGTH called count)
    list(JOIN called ", " names)
    set(it it)
    if(count GREATER 1)
      set(it them)
    endif()
    string(CONCAT text "${side} calls a library given to ${other} only (${keyword}), and ${may_use}. "
      "${because}:\n${library_lines}")
    if(code_lines)
      string(APPEND text "It also calls code it may not use:\n${code_lines}")
    endif()
    string(APPEND text "To give ${names} to both sides, move ${it} from ${keyword} to LIBRARIES; "
      "else make ${side} stop calling ${it}.")
    if(code_lines)
      string(APPEND text " ${code_fix}")
    endif()
  else()
    set(text "${side} does not link on its own; ${may_use}. ${because}:\n${code_lines}${code_fix}")
  endif()
  message(FATAL_ERROR "${context}: ${text}")
endfunction()

if(COMPARE)
  set(REFERENCE_text "the reference")
  set(PREP_text "the prep step")
  set(STUDENT_text "the student")
  set(BENCH_text "the bench")
  forge_keyword_files(LIBRARIES libraries)
  if(STUDENT)
    forge_keyword_files(STUDENT_LIBRARIES student_libraries)
    string(CONCAT fix "Make the student call its own code. A library the student uses goes in STUDENT_LIBRARIES "
      "(in LIBRARIES for both sides), and code both sides use in a library of the project given to LIBRARIES "
      "(cmake/README.md, Libraries).")
    forge_check_side("the student" "${STUDENT}" "${HARNESS};${libraries};${student_libraries}"
      "REFERENCE;PREP;BENCH" REFERENCE_LIBRARIES "the reference"
      "it may use the harness, LIBRARIES and STUDENT_LIBRARIES only" "${fix}")
  endif()
  if(PREP)
    forge_keyword_files(REFERENCE_LIBRARIES reference_libraries)
    string(CONCAT fix "The prep step runs outside every timed window, and the student's code must not run there: "
      "make it call the reference's code, or a library of the project given to LIBRARIES or REFERENCE_LIBRARIES.")
    forge_check_side("the prep step" "${PREP}" "${REFERENCE};${HARNESS};${libraries};${reference_libraries}"
      "STUDENT;BENCH" STUDENT_LIBRARIES "the student"
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
    "-Wl,--wrap that calls it. (docs/design/threat-model.md)")
endif()
