# forge_add_operator(<name> ...): one operator card, from its directory to its
# CTest tests. Signature and behaviour: README.md beside this file (cmake/ in
# the source tree, lib/cmake/ForgeKernel/ where the package is installed).
# Relative paths given to DIRECTORY are relative to the calling directory;
# relative paths in the file lists, to the card.
include_guard(GLOBAL)

# forge_add_operator()'s keywords, written here once: the argument parsing, its
# messages and its checks below read them from these properties (a function
# called from the user's directories does not see variables set in ours), and
# tests/cmake/keywords_documented.cmake holds README.md's signature to them.
# Options (none yet); keywords that take one value; keywords that take a list:
# the card's files by role, then the libraries, then the rest.
set(_forge_file_keywords REFERENCE STUDENT BENCH PREP)
set_property(GLOBAL PROPERTY _FORGE_OPERATOR_OPTIONS QUICK NOISE_FLOOR)
set_property(GLOBAL PROPERTY _FORGE_OPERATOR_ONE_VALUE_KEYWORDS DIRECTORY BACKEND GATE TIMEOUT PRECISION TIME_CAP)
set_property(GLOBAL PROPERTY _FORGE_OPERATOR_FILE_KEYWORDS ${_forge_file_keywords})
set_property(GLOBAL PROPERTY _FORGE_OPERATOR_MULTI_VALUE_KEYWORDS
  ${_forge_file_keywords} LIBRARIES REFERENCE_LIBRARIES STUDENT_LIBRARIES LABELS LAUNCHER)
unset(_forge_file_keywords)

function(forge_add_operator)
  if(ARGC EQUAL 0)
    message(FATAL_ERROR "forge_add_operator() needs the operator's name as its first argument.")
  endif()
  set(name "${ARGV0}")
  # The name becomes a directory, target names and test names: nothing that
  # could climb out of the tree, split a list or expand in a shell.
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "forge_add_operator(\"${name}\"): the operator name must match "
      "[A-Za-z_][A-Za-z0-9_]* (it names the card's directory, its targets and its tests). "
      "Nothing was written.")
  endif()
  set(context "forge_add_operator(${name})")

  get_property(options GLOBAL PROPERTY _FORGE_OPERATOR_OPTIONS)
  get_property(one_value GLOBAL PROPERTY _FORGE_OPERATOR_ONE_VALUE_KEYWORDS)
  get_property(multi_value GLOBAL PROPERTY _FORGE_OPERATOR_MULTI_VALUE_KEYWORDS)
  get_property(file_keywords GLOBAL PROPERTY _FORGE_OPERATOR_FILE_KEYWORDS)
  cmake_parse_arguments(PARSE_ARGV 1 arg "${options}" "${one_value}" "${multi_value}")
  if(arg_UNPARSED_ARGUMENTS)
    list(GET arg_UNPARSED_ARGUMENTS 0 unknown)
    set(kinds options one_value multi_value)
    set(takes "(alone)" "(with one value)" "(with a list)")
    set(described "")
    foreach(kind what IN ZIP_LISTS kinds takes)
      if(${kind})
        _forge_join_words("${${kind}}" words)
        list(APPEND described "${words} ${what}")
      endif()
    endforeach()
    _forge_join_words("${described}" kinds)
    message(FATAL_ERROR "${context}: unknown argument \"${unknown}\". The keywords are ${kinds}.")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    list(JOIN arg_KEYWORDS_MISSING_VALUES ", " missing)
    message(FATAL_ERROR "${context}: ${missing} given without a value.")
  endif()
  # An empty value ("") reads as absent or as empty depending on the CMake
  # version (CMP0174): refused on every version, so DIRECTORY "" never silently
  # means the card's default directory on one CMake and the calling one on another.
  # Only a call with an empty argument (";;" in the joined list) can have one.
  if(";${ARGV};" MATCHES ";;")
    math(EXPR last "${ARGC} - 2")
    if(last GREATER_EQUAL 1)
      foreach(i RANGE 1 ${last})  # each argument that has one after it
        math(EXPR next "${i} + 1")
        if("${ARGV${i}}" IN_LIST one_value AND "${ARGV${next}}" STREQUAL "")
          message(FATAL_ERROR "${context}: ${ARGV${i}} is empty; give it a value or leave the keyword out.")
        endif()
      endforeach()
    endif()
  endif()

  get_property(enabled_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(arg_BACKEND_default FALSE)
  if(NOT DEFINED arg_BACKEND)
    set(arg_BACKEND_default TRUE)
    if("CUDA" IN_LIST enabled_languages)
      set(arg_BACKEND CUDA)
    else()
      set(arg_BACKEND HOST)
    endif()
  elseif(NOT arg_BACKEND MATCHES "^(CUDA|HOST)$")
    message(FATAL_ERROR "${context}: BACKEND is \"${arg_BACKEND}\"; it must be CUDA or HOST.")
  elseif(arg_BACKEND STREQUAL "CUDA" AND NOT "CUDA" IN_LIST enabled_languages)
    message(FATAL_ERROR "${context}: BACKEND CUDA needs the CUDA language: enable it first "
      "(project(... LANGUAGES CXX CUDA) or enable_language(CUDA)), or use BACKEND HOST.")
  endif()
  if(arg_BACKEND STREQUAL "CUDA")
    _forge_require_cuda_harness("${context}" ${arg_BACKEND} "${arg_BACKEND_default}")
  endif()
  # A number as `forge credit --gate` reads one: 0.9, .9, 9e-1.
  if(DEFINED arg_GATE AND (NOT arg_GATE MATCHES "^([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?$"
                           OR arg_GATE EQUAL 0))
    message(FATAL_ERROR "${context}: GATE is \"${arg_GATE}\"; it must be a positive number, "
      "the lowest raw ratio (reference_ms / student_ms) the gate test accepts, e.g. GATE 0.9.")
  endif()
  if(DEFINED arg_TIMEOUT AND (NOT arg_TIMEOUT MATCHES "^[0-9]+$" OR arg_TIMEOUT EQUAL 0))
    message(FATAL_ERROR "${context}: TIMEOUT is \"${arg_TIMEOUT}\"; it must be a positive whole number of seconds.")
  endif()
  _forge_bench_stopping_args("${context}" "${arg_QUICK}" "${arg_PRECISION}" "${arg_TIME_CAP}" stopping_args)

  get_property(operators GLOBAL PROPERTY _FORGE_OPERATORS)
  if(name IN_LIST operators)
    message(FATAL_ERROR "${context}: an operator of this name was already added; "
      "its targets and tests would clash. Give each operator its own name.")
  endif()
  set_property(GLOBAL APPEND PROPERTY _FORGE_OPERATORS "${name}")
  set_property(GLOBAL APPEND PROPERTY _FORGE_OPERATOR_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}")

  if(DEFINED arg_DIRECTORY)
    cmake_path(ABSOLUTE_PATH arg_DIRECTORY BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE OUTPUT_VARIABLE card)
  else()
    set(card "${CMAKE_CURRENT_SOURCE_DIR}/${name}")
  endif()

  # Each role's files: the ones given (relative to the card), or the defaults.
  # Either way a missing file that has a template is scaffolded. The prep step
  # has no default: a card has one only when PREP names its files, and
  # PREP prep/prep.hpp prep/prep.cpp scaffolds the stub there.
  set(scaffold "${card}/window.toml" "${card}/README.md")
  _forge_card_files("${card}" ${arg_BACKEND} default)
  set(PREP "")
  set(custom_layout FALSE)
  foreach(role IN LISTS file_keywords)
    if(DEFINED arg_${role})
      set(custom_layout TRUE)
    endif()
  endforeach()
  if(custom_layout)
    foreach(role IN LISTS file_keywords)
      if(DEFINED arg_${role})
        list(TRANSFORM arg_${role} PREPEND "${card}/" REGEX "^[^/]")
        set(${role} ${arg_${role}})
      elseif(NOT role STREQUAL "PREP")
        set(${role} ${default_${role}})
      endif()
    endforeach()
    # The default files of the two sides never share one.
    if(DEFINED arg_REFERENCE OR DEFINED arg_STUDENT OR DEFINED arg_PREP)
      _forge_check_no_shared_files("${context}" "${name}" "${STUDENT}" "${REFERENCE};${PREP}")
    endif()
  else()
    set(REFERENCE ${default_REFERENCE})
    set(STUDENT ${default_STUDENT})
    set(BENCH ${default_BENCH})
  endif()
  list(APPEND scaffold ${REFERENCE} ${STUDENT} ${BENCH} ${PREP})
  _forge_card_languages("${context}" "${card}" "${REFERENCE};${STUDENT};${BENCH};${PREP}"
    "${enabled_languages}" card_languages)
  # Only the missing files are scaffolded: most configures find every one.
  set(missing "")
  foreach(file IN LISTS scaffold)
    if(NOT EXISTS "${file}")
      list(APPEND missing "${file}")
    endif()
  endforeach()
  if(missing)
    set(own_sides "")
    foreach(side IN ITEMS reference student)
      string(TOUPPER "${side}" role)
      if(DEFINED arg_${role})
        list(APPEND own_sides ${side})
      endif()
    endforeach()
    _forge_scaffold("${name}" "${card}" ${arg_BACKEND} "${missing}" "${own_sides}")
  endif()

  if(custom_layout)
    _forge_include_dirs("${REFERENCE}" reference_dirs)
    _forge_include_dirs("${STUDENT}" student_dirs)
    _forge_include_dirs("${PREP}" prep_dirs)
    _forge_check_student_apart("${context}" "${student_dirs}" "${reference_dirs}" "${prep_dirs}")
  else()
    set(reference_dirs "${card}/reference")
    set(student_dirs "${card}/student")
    set(prep_dirs "${card}/prep")
  endif()

  # Each side, and the prep step, is a target of its own with its own include
  # path and libraries: LIBRARIES reach both sides, REFERENCE_LIBRARIES the
  # reference and the prep step, STUDENT_LIBRARIES the student. The bench
  # links them all; a library's compile options (OpenMP's -fopenmp) reach the
  # bench only from a side made of headers, whose code compiles there. Object and
  # interface libraries keep configure cheap: a static library per card role
  # costs twice the configure time of a hand-written add_executable per operator.
  set(prefix forge_${name})
  set(reference_libraries ${arg_LIBRARIES} ${arg_REFERENCE_LIBRARIES})
  set(student_libraries ${arg_LIBRARIES} ${arg_STUDENT_LIBRARIES})
  _forge_align_options("${enabled_languages}" align)
  _forge_card_library(${prefix}_reference ${arg_BACKEND} "${REFERENCE}" "${reference_dirs}" "${reference_libraries}"
    "${align}")
  _forge_card_library(${prefix}_student ${arg_BACKEND} "${STUDENT}" "${student_dirs}" "${student_libraries}"
    "${align}")
  add_executable(${prefix}_bench ${BENCH})
  target_link_libraries(${prefix}_bench PRIVATE forge::bench ${prefix}_reference ${prefix}_student ${arg_LIBRARIES})
  if(arg_BACKEND STREQUAL "CUDA")
    # The harness's headers are C++20, in .cu files as in .cpp files (and CMake
    # 3.25 knows no CUDA_STANDARD 20 flag for nvcc).
    target_compile_options(${prefix}_bench PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>)
  endif()
  if(align)
    target_compile_options(${prefix}_bench PRIVATE ${align})
  endif()
  _forge_record_build("${context}" ${prefix}_bench ${prefix}_reference ${prefix}_student ${arg_BACKEND}
    "${card_languages}")

  set(contract "${card}/window.toml")
  set(${prefix}_prep_objects "")
  if(PREP)
    # The prep step sees the reference's headers, never the student's: it runs
    # outside every timed window, and the student's code must not run there.
    _forge_card_library(${prefix}_prep ${arg_BACKEND} "${PREP}" "${prep_dirs};${reference_dirs}" "${reference_libraries}"
      "")
    target_link_libraries(${prefix}_bench PRIVATE ${prefix}_prep)
    _forge_check_prep_includes("${name}" "${PREP}" "${STUDENT}" "${student_dirs}" "${prep_dirs};${reference_dirs}")
    # A prep source that starts including the student is found at the next build.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PREP})
  else()
    set_property(GLOBAL APPEND PROPERTY _FORGE_CONTRACTS_WITHOUT_PREP "${contract}")
  endif()
  _forge_side_checks(${name} ${arg_BACKEND} "${${prefix}_reference_objects}" "${${prefix}_student_objects}"
    "${${prefix}_prep_objects}" "${arg_LIBRARIES}" "${arg_REFERENCE_LIBRARIES}" "${arg_STUDENT_LIBRARIES}" FALSE)

  # Validated with every other contract at the end of configure, and again
  # whenever the file changes (the next build re-runs configure).
  set_property(GLOBAL APPEND PROPERTY _FORGE_CONTRACTS "${contract}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${contract}")
  set_property(GLOBAL APPEND PROPERTY FORGE_BUILD_TARGETS ${prefix}_bench)

  # A project that chose no CUDA architectures gets its GPUs' (see
  # _forge_cuda_architectures), on every target of the card that compiles CUDA.
  if(arg_BACKEND STREQUAL "CUDA")
    _forge_cuda_architectures("${context}" architectures)
    foreach(role IN ITEMS bench reference student prep prep_link_check student_link_check)
      if(architectures AND TARGET ${prefix}_${role})
        get_target_property(type ${prefix}_${role} TYPE)
        if(NOT type STREQUAL "INTERFACE_LIBRARY")
          set_target_properties(${prefix}_${role} PROPERTIES CUDA_ARCHITECTURES "${architectures}")
        endif()
      endif()
    endforeach()
  endif()

  if(NOT DEFINED arg_LAUNCHER)
    set(arg_LAUNCHER "${FORGE_BENCH_LAUNCHER}")
  endif()
  # CMake 3.29's own test launcher, under forge launch like ours (CMake would
  # run it bare, and a timeout would leave its job behind).
  if(NOT arg_LAUNCHER AND CMAKE_TEST_LAUNCHER)
    set(arg_LAUNCHER "${CMAKE_TEST_LAUNCHER}")
  endif()
  _forge_add_operator_tests(${name} "${card}" ${arg_BACKEND} "${arg_GATE}" "${arg_TIMEOUT}" "${arg_LABELS}"
    "${stopping_args}" "${arg_LAUNCHER}" "${arg_NOISE_FLOOR}")
endfunction()

# `words` (a list) as prose, in `out`: "A", "A and B", "A, B and C".
function(_forge_join_words words out)
  list(POP_BACK words last)
  if(words)
    list(JOIN words ", " text)
    set(${out} "${text} and ${last}" PARENT_SCOPE)
  else()
    set(${out} "${last}" PARENT_SCOPE)
  endif()
endfunction()

# A CUDA card needs forge::bench built with its CUDA backend: without it the
# bench would build and then only skip (exit 77), even on a GPU. Refused
# before anything is written, with how to get that harness. A project that
# enables CUDA and gives no BACKEND gets the same refusal: its cards are CUDA
# cards by default, and a HOST card says BACKEND HOST.
function(_forge_require_cuda_harness context backend by_default)
  get_property(bench_cuda GLOBAL PROPERTY _FORGE_BENCH_CUDA)
  if(NOT backend STREQUAL "CUDA" OR bench_cuda)
    return()
  endif()
  if(by_default)
    set(why "this project enables the CUDA language, so the card's backend is CUDA")
  else()
    set(why "BACKEND CUDA")
  endif()
  get_property(package_dir GLOBAL PROPERTY _FORGE_PACKAGE_DIR)
  if(package_dir)
    message(FATAL_ERROR "${context}: ${why}, but the ForgeKernel package found at ${package_dir} "
      "was built without the CUDA harness (FORGE_ENABLE_CUDA OFF): the bench would build and only skip. "
      "Install the package with it, from a ForgeKernel clone: tools/install <prefix> -DFORGE_ENABLE_CUDA=ON "
      "-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc (${package_dir}/README.md, \"With the CUDA harness\"); "
      "or give the card BACKEND HOST. Nothing was written.")
  endif()
  message(FATAL_ERROR "${context}: ${why}, but ForgeKernel is built here without the CUDA harness "
    "(FORGE_ENABLE_CUDA OFF): the bench would build and only skip. Configure with -DFORGE_ENABLE_CUDA=ON "
    "(and -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc where nvcc is not on the PATH), "
    "or give the card BACKEND HOST. Nothing was written.")
endfunction()

# The CUDA architectures for a project's CUDA cards, as `out`: empty when the
# project chose its own (CMAKE_CUDA_ARCHITECTURES on the command line, in a
# preset, a cache script or its CMakeLists.txt, or CUDAARCHS in the
# environment), which its targets then follow; else the GPUs of this machine
# (CMake's `native`, else nvidia-smi), SASS for each. With no choice and no GPU
# the cards keep nvcc's default, with a warning that says how to choose: on
# another GPU their kernels would run JIT-compiled PTX, or not at all. Decided
# once per project. CMake 3.25 keeps no record of the default it picked: a value
# the user did not give is the one CMake cached itself (help text "CUDA
# architectures"), unchanged since.
function(_forge_cuda_architectures context out)
  get_property(decided GLOBAL PROPERTY _FORGE_CUDA_ARCHITECTURES SET)
  if(decided)
    get_property(architectures GLOBAL PROPERTY _FORGE_CUDA_ARCHITECTURES)
    set(${out} "${architectures}" PARENT_SCOPE)
    return()
  endif()
  set(chosen TRUE)
  if(NOT "$ENV{CUDAARCHS}" STREQUAL "")
    # The environment's choice (CMake reads it when it first meets nvcc).
  elseif(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(chosen FALSE)  # CMP0104 OLD (a project older than CMake 3.18): no flags, nvcc's default
  elseif(DEFINED CACHE{CMAKE_CUDA_ARCHITECTURES}
      AND "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "$CACHE{CMAKE_CUDA_ARCHITECTURES}")
    get_property(help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
    if(help STREQUAL "CUDA architectures" AND (NOT DEFINED CMAKE_CUDA_ARCHITECTURES_DEFAULT
        OR "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "${CMAKE_CUDA_ARCHITECTURES_DEFAULT}"))
      set(chosen FALSE)
    endif()
  endif()
  set(architectures "")
  if(NOT chosen)
    set(architectures "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
    set(found_by "CMake's native detection")
    if(architectures STREQUAL "")
      find_program(_FORGE_NVIDIA_SMI nvidia-smi)
      mark_as_advanced(_FORGE_NVIDIA_SMI)
      if(_FORGE_NVIDIA_SMI)
        execute_process(COMMAND "${_FORGE_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
          RESULT_VARIABLE result OUTPUT_VARIABLE capabilities ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
        if(result EQUAL 0)
          string(REGEX MATCHALL "[0-9]+\\.[0-9]+" capabilities "${capabilities}")
          foreach(capability IN LISTS capabilities)
            string(REPLACE "." "" number "${capability}")
            list(APPEND architectures "${number}-real")
          endforeach()
          list(REMOVE_DUPLICATES architectures)
          set(found_by "nvidia-smi")
        endif()
      endif()
    endif()
    if(architectures)
      message(STATUS "ForgeKernel: CUDA cards built for ${architectures}, the GPUs found here (${found_by}): "
        "CMAKE_CUDA_ARCHITECTURES was not set. Set it to choose others (e.g. -DCMAKE_CUDA_ARCHITECTURES=90).")
    else()
      set(default "its built-in architecture")
      if(CMAKE_CUDA_ARCHITECTURES)
        set(default "${CMAKE_CUDA_ARCHITECTURES}")
      endif()
      message(WARNING "${context}: CMAKE_CUDA_ARCHITECTURES was not set and no GPU was found here, so the CUDA "
        "cards of this build are compiled for nvcc's default, ${default}, only. On any other "
        "GPU their kernels run PTX that the driver JIT-compiles, or cannot run at all, while a library reference "
        "(cuBLAS) runs code built for that GPU: the ratio would compare unlike builds. Choose the GPUs the benches "
        "run on: -DCMAKE_CUDA_ARCHITECTURES=90 (H100, H200), 80 (A100), 89 (L4, L40, RTX 40xx), 100 (B200), "
        "or several, e.g. \"80;90\" (or CUDAARCHS in the environment). eval.json records the architectures, and "
        "the bench notes a GPU without native code among them. This warning is given once, for every CUDA card.")
    endif()
  endif()
  set_property(GLOBAL PROPERTY _FORGE_CUDA_ARCHITECTURES "${architectures}")
  set(${out} "${architectures}" PARENT_SCOPE)
endfunction()

# The directories holding `files`: a card library's include path.
function(_forge_include_dirs files out)
  set(dirs "")
  foreach(file IN LISTS files)
    cmake_path(GET file PARENT_PATH dir)
    list(APPEND dirs "${dir}")
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  set(${out} "${dirs}" PARENT_SCOPE)
endfunction()

# A file given to the student and to the reference or the prep step: each
# side's copy would be linked into the bench, and the prep step could include
# the student's code. What both sides use is a library of the project.
function(_forge_check_no_shared_files context name student others)
  set(normal_others "")
  foreach(file IN LISTS others)
    cmake_path(NORMAL_PATH file)
    list(APPEND normal_others "${file}")
  endforeach()
  set(shared "")
  foreach(file IN LISTS student)
    cmake_path(NORMAL_PATH file)
    if(file IN_LIST normal_others)
      list(APPEND shared "${file}")
    endif()
  endforeach()
  if(shared)
    list(JOIN shared ", " shared)
    message(FATAL_ERROR "${context}: STUDENT and REFERENCE or PREP both list ${shared}, but a file is "
      "one side's own: both sides' copies would be linked into the bench, and the prep step could include the "
      "student's code. Code both sides use goes in a library of the project given to LIBRARIES: "
      "add_library(${name}_common STATIC <its sources>) and target_include_directories(${name}_common PUBLIC "
      "<its directory>) (an INTERFACE library for headers alone), then forge_add_operator(${name} ... "
      "LIBRARIES ${name}_common).")
  endif()
endfunction()

# The student's headers must not be reachable from the reference's or the prep
# step's include path, or the prep step could include them.
function(_forge_check_student_apart context student_dirs reference_dirs prep_dirs)
  foreach(student_dir IN LISTS student_dirs)
    foreach(other IN LISTS reference_dirs prep_dirs)
      cmake_path(IS_PREFIX other "${student_dir}" NORMALIZE inside)
      if(inside)
        message(FATAL_ERROR "${context}: the STUDENT files in ${student_dir} are inside ${other}, "
          "a directory of the reference's or the prep step's files, so the prep step could include them. "
          "Keep the student's files in a directory of their own (the card's student/).")
      endif()
    endforeach()
  endforeach()
endfunction()

# A card role built on its own: an object library (its objects go into the
# targets that link it), or an interface library when it is only headers,
# whose code then compiles in the targets that include it, with its libraries.
# An object library's libraries compile its sources alone: the targets that
# link it get their link requirements, and the include directories and
# definitions its headers may need, but not their compile options, so a
# student's -fopenmp never reaches a reference made of headers in the bench.
function(_forge_card_library target backend files include_dirs libraries align)
  set(sources "${files}")
  list(FILTER sources INCLUDE REGEX "\\.(c|cc|cpp|cxx|cu)$")
  if(NOT sources)
    set(${target}_objects "" PARENT_SCOPE)
    add_library(${target} INTERFACE ${files})
    target_include_directories(${target} INTERFACE ${include_dirs})
    # forge::bench: the regions a HOST call marks, the prep step's PrepIo.
    target_link_libraries(${target} INTERFACE forge::bench ${libraries})
    return()
  endif()
  set(${target}_objects "$<TARGET_OBJECTS:${target}>" PARENT_SCOPE)
  add_library(${target} OBJECT ${files})
  if(backend STREQUAL "CUDA")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>)
  endif()
  if(align)
    target_compile_options(${target} PRIVATE ${align})  # the timed code's alignment
  endif()
  target_include_directories(${target} PUBLIC ${include_dirs})
  target_link_libraries(${target} PUBLIC forge::bench)
  if(NOT libraries)
    return()
  endif()
  # The old debug/optimized keywords pair with the next item: that list goes on whole.
  if("debug" IN_LIST libraries OR "optimized" IN_LIST libraries OR "general" IN_LIST libraries)
    target_link_libraries(${target} PUBLIC ${libraries})
    return()
  endif()
  foreach(library IN LISTS libraries)
    if(library MATCHES "^[A-Za-z0-9_.+][A-Za-z0-9_.+:-]*$")
      # A name: a target (now, or defined later) or a library the linker finds.
      set(exists "$<TARGET_EXISTS:${library}>")
      target_link_libraries(${target} PRIVATE ${library} INTERFACE "$<LINK_ONLY:${library}>")
      target_include_directories(${target} SYSTEM INTERFACE
        "$<${exists}:$<TARGET_PROPERTY:${library},INTERFACE_INCLUDE_DIRECTORIES>>")
      target_compile_definitions(${target} INTERFACE
        "$<${exists}:$<TARGET_PROPERTY:${library},INTERFACE_COMPILE_DEFINITIONS>>")
    else()
      # A path, a linker flag or a generator expression: on as it is.
      target_link_libraries(${target} PUBLIC ${library})
    endif()
  endforeach()
endfunction()

# Proof that a side's objects link on their own, checked when the bench links
# (a PRE_LINK command of the bench, ForgeSideSymbols.cmake): the student's
# objects may use the harness, LIBRARIES and STUDENT_LIBRARIES, never what only
# the reference, the prep step, the bench or REFERENCE_LIBRARIES define; the
# prep step's may use the reference, the harness, LIBRARIES and
# REFERENCE_LIBRARIES, never what only the student, the bench or
# STUDENT_LIBRARIES define. The bench links every side's libraries, so its own
# link could not tell. nm compares what each side's objects leave undefined
# with what the others define: no target of its own, so a card costs no more to
# configure than its three building targets. The student's objects are also
# held to the harness's guarded functions there. A side made of headers only
# has no objects to check.
#
# That needs each library as files (a target's, an imported target's, a path;
# an interface library's links; a linker flag defines nothing). A library the
# linker finds by name, or a target defined after the call outside this
# directory, cannot be read that way: that card's sides are linked on their own
# instead, an executable per side (forge_<name>_student_link_check,
# forge_<name>_prep_link_check), built before the bench. A name that is not a
# target yet is looked at again when the calling directory ends (`deferred`).
function(_forge_side_checks name backend reference_objects student_objects prep_objects
    libraries reference_libraries student_libraries deferred)
  if(student_objects STREQUAL "" AND prep_objects STREQUAL "")
    return()
  endif()
  set(prefix forge_${name})
  set(state OK)
  # Each library as the user wrote it, and its files: -D<KEYWORD>=<names> and
  # -D<KEYWORD>_<i>=<files of the i-th name>, so that a refusal names both.
  set(library_arguments "")
  if(NOT "${libraries}${reference_libraries}${student_libraries}" STREQUAL "")  # most cards have none
    foreach(keyword IN ITEMS LIBRARIES REFERENCE_LIBRARIES STUDENT_LIBRARIES)
      string(TOLOWER "${keyword}" list)
      set(names "")
      set(i 0)
      foreach(item IN LISTS ${list})
        _forge_library_files("${item}" ${backend} ${deferred} files item_state)
        if(item_state STREQUAL "NO")
          set(state NO)
        elseif(item_state STREQUAL "LATER" AND state STREQUAL "OK")
          set(state LATER)
        endif()
        if(files)  # a linker flag, libm: no files, nothing to name
          list(APPEND names "${item}")
          list(JOIN files "$<SEMICOLON>" files)  # one argument each
          list(APPEND library_arguments "-D${keyword}_${i}=${files}")
          math(EXPR i "${i} + 1")
        endif()
      endforeach()
      list(JOIN names "$<SEMICOLON>" names)
      list(APPEND library_arguments "-D${keyword}=${names}")
    endforeach()
  endif()
  if(state STREQUAL "LATER")
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _forge_side_checks [==[${name}]==] [==[${backend}]==] "
      "[==[${reference_objects}]==] [==[${student_objects}]==] [==[${prep_objects}]==] "
      "[==[${libraries}]==] [==[${reference_libraries}]==] [==[${student_libraries}]==] TRUE)")
    return()
  endif()
  set(compare ON)
  if(state STREQUAL "NO")
    set(compare OFF)
    set(library_arguments "")  # each side is linked on its own instead
    _forge_add_link_check(${name} student ${backend} "${libraries};${student_libraries}" "${reference_libraries}")
    if(TARGET ${prefix}_prep)
      _forge_add_link_check(${name} prep ${backend} "${prefix}_reference;${libraries};${reference_libraries}"
        "${student_libraries}")
    endif()
  endif()
  # The harness's files, read once per project.
  get_property(harness GLOBAL PROPERTY _FORGE_HARNESS_FILES_${backend})
  if(NOT harness)
    _forge_library_files(forge::bench ${backend} TRUE harness harness_state)
    set_property(GLOBAL PROPERTY _FORGE_HARNESS_FILES_${backend} "${harness}")
  endif()
  add_custom_command(TARGET ${prefix}_bench PRE_LINK
    COMMAND "${CMAKE_COMMAND}" "-DNM=${CMAKE_NM}" "-DOPERATOR=${name}" -DCOMPARE=${compare}
      "-DSTUDENT=${student_objects}" "-DPREP=${prep_objects}" "-DREFERENCE=${reference_objects}"
      "-DBENCH=$<TARGET_OBJECTS:${prefix}_bench>" "-DHARNESS=${harness}" ${library_arguments}
      -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ForgeSideSymbols.cmake"
    VERBATIM)
endfunction()

# The files that `items` (a card's library list) put on a link line, as
# generator expressions in `out_files`, following interface libraries' links;
# `out_state` is OK, LATER (a name that is no target yet, before `deferred`) or
# NO (something that cannot be read as files: a library the linker finds by
# name, a keyword, a generator expression, an executable). Linker flags and the
# libraries every link of `backend` has anyway (the C and C++ runtime, libm)
# define nothing here.
function(_forge_library_files items backend deferred out_files out_state)
  set(files "")
  set(state OK)
  set(seen "")
  set(implicit ${CMAKE_CXX_IMPLICIT_LINK_LIBRARIES})
  if(backend STREQUAL "CUDA")
    list(APPEND implicit ${CMAKE_CUDA_IMPLICIT_LINK_LIBRARIES})
  endif()
  while(NOT items STREQUAL "")
    list(POP_FRONT items item)
    if(item MATCHES "^\\$<LINK_ONLY:([^$<>]+)>$")
      set(item "${CMAKE_MATCH_1}")
    endif()
    if(item STREQUAL "" OR item MATCHES "^::@" OR item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${item}")
    if(TARGET "${item}")
      get_target_property(type "${item}" TYPE)
      if(type MATCHES "^(STATIC|SHARED|UNKNOWN)_LIBRARY$")
        list(APPEND files "$<TARGET_FILE:${item}>")
      elseif(type STREQUAL "OBJECT_LIBRARY")
        list(APPEND files "$<TARGET_OBJECTS:${item}>")
      elseif(NOT type STREQUAL "INTERFACE_LIBRARY")
        set(state NO)
        break()
      endif()
      get_target_property(links "${item}" INTERFACE_LINK_LIBRARIES)
      if(links)
        list(APPEND items ${links})
      endif()
    elseif(item MATCHES "^-l(.+)$")
      if(NOT CMAKE_MATCH_1 IN_LIST implicit)  # -lm: as every link has it
        set(state NO)
        break()
      endif()
    elseif(item MATCHES "^-")
      # A linker flag (-Wl,--as-needed, -pthread): no definitions of its own.
    elseif(item MATCHES "[$<>]" OR item MATCHES "^(debug|optimized|general)$")
      set(state NO)
      break()
    elseif(IS_ABSOLUTE "${item}")
      cmake_path(GET item FILENAME file)
      if(file MATCHES "^lib(.+)\\.(a|so)(\\.[0-9.]*)?$" AND CMAKE_MATCH_1 IN_LIST implicit)
        continue()
      endif()
      list(APPEND files "${item}")
    elseif(item IN_LIST implicit)
      # m, pthread: as every link has them.
    elseif(NOT deferred)
      set(state LATER)  # perhaps a target defined after the call
    else()
      set(state NO)
      break()
    endif()
  endwhile()
  set(${out_files} "${files}" PARENT_SCOPE)
  set(${out_state} ${state} PARENT_SCOPE)
endfunction()

# An executable linking the `role`'s object library (prep, student), the
# harness and `libraries` on their own, built before the bench: a side that
# calls what it may not fails this link, naming the symbol. For a card whose
# libraries cannot be read as files (above). The link checks of a project
# share one main(), compiled once (_forge_link_check_main). `forbidden`: the
# libraries given to the other side only (REFERENCE_LIBRARIES for the student,
# STUDENT_LIBRARIES for the prep step), which a failed link names in words.
function(_forge_add_link_check name role backend libraries forbidden)
  set(prefix forge_${name})
  get_target_property(type ${prefix}_${role} TYPE)
  if(NOT type STREQUAL "OBJECT_LIBRARY")
    return()
  endif()
  if(NOT TARGET _forge_link_check_main)
    set(main "${CMAKE_BINARY_DIR}/CMakeFiles/forge_link_check.cpp")
    if(NOT EXISTS "${main}")
      file(WRITE "${main}" "// The main() of forge_add_operator()'s link checks, each of which links one side "
        "of an operator card with its own libraries only.\nint main() { return 0; }\n")
    endif()
    add_library(_forge_link_check_main OBJECT EXCLUDE_FROM_ALL "${main}")
  endif()
  add_executable(${prefix}_${role}_link_check EXCLUDE_FROM_ALL $<TARGET_OBJECTS:_forge_link_check_main>)
  target_link_libraries(${prefix}_${role}_link_check PRIVATE ${prefix}_${role} forge::bench ${libraries})
  if(backend STREQUAL "CUDA")
    set_target_properties(${prefix}_${role}_link_check PROPERTIES LINKER_LANGUAGE CUDA)
    # As the card's other targets (forge_add_operator()), for a check made once the directory ends.
    _forge_cuda_architectures("forge_add_operator(${name})" architectures)
    if(architectures)
      set_target_properties(${prefix}_${role}_link_check PROPERTIES CUDA_ARCHITECTURES "${architectures}")
    endif()
  else()
    # As when it compiled its own main.cpp: the C++ driver links it.
    set_target_properties(${prefix}_${role}_link_check PROPERTIES LINKER_LANGUAGE CXX)
    _forge_link_check_launcher(${name} ${role} "${forbidden}")
  endif()
  add_dependencies(${prefix}_bench ${prefix}_${role}_link_check)
endfunction()

# A failed link check says in words what its side called that a library given
# to the other side only defines, naming the symbol and the library (its file
# and its name in `forbidden`): ForgeLinkCheck.cmake runs the link as the
# link check's CXX_LINKER_LAUNCHER. Where no launcher runs (CUDA links in
# CMake 3.25, generators other than Ninja and Makefiles) and in a multi-config
# build (whose files differ per configuration), the linker's own message names
# the symbol alone.
function(_forge_link_check_launcher name role forbidden)
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config OR NOT CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
    return()
  endif()
  set(target forge_${name}_${role}_link_check)
  if(role STREQUAL "student")
    set(side "the student")
    set(other "the reference")
    set(keyword REFERENCE_LIBRARIES)
    set(may_use "the harness, LIBRARIES and STUDENT_LIBRARIES")
  else()
    set(side "the prep step")
    set(other "the student")
    set(keyword STUDENT_LIBRARIES)
    set(may_use "the reference, the harness, LIBRARIES and REFERENCE_LIBRARIES")
  endif()
  string(CONCAT settings "# ForgeLinkCheck.cmake's settings for ${target}, written by forge_add_operator().\n"
    "set(OPERATOR [==[${name}]==])\nset(SIDE [==[${side}]==])\nset(OTHER [==[${other}]==])\n"
    "set(KEYWORD ${keyword})\nset(MAY_USE [==[${may_use}]==])\nset(NM [==[${CMAKE_NM}]==])\n"
    "set(SEARCH_DIRS [==[${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES}]==])\n")
  # Each library as the user wrote it, with its files (a target's, a path),
  # or none for one the linker finds by name (looked for when the link fails).
  set(names "")
  set(i 0)
  foreach(item IN LISTS forbidden)
    if(item MATCHES "[$<>]")
      continue()  # a generator expression: the linker's message alone
    endif()
    _forge_library_files("${item}" CXX TRUE files state)
    if(state STREQUAL "OK" AND NOT files)
      continue()  # a linker flag, libm: nothing to name
    endif()
    if(NOT state STREQUAL "OK")
      set(files "")
    elseif(TARGET "${item}")
      # Built before the check links, so that a failed link can read its files.
      get_target_property(aliased "${item}" ALIASED_TARGET)
      if(aliased)
        add_dependencies(${target} "${aliased}")
      else()
        add_dependencies(${target} "${item}")
      endif()
    endif()
    list(APPEND names "${item}")
    string(APPEND settings "set(LIBRARY_${i} [==[${files}]==])\n")
    math(EXPR i "${i} + 1")
  endforeach()
  string(APPEND settings "set(LIBRARIES [==[${names}]==])\n")
  set(file "${CMAKE_CURRENT_BINARY_DIR}/${target}.cmake")
  file(GENERATE OUTPUT "${file}" CONTENT "${settings}")
  set(launcher "${CMAKE_COMMAND}" "-DSETTINGS=${file}" -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ForgeLinkCheck.cmake" --)
  get_target_property(theirs ${target} CXX_LINKER_LAUNCHER)  # the project's own, run by ours
  if(theirs)
    list(APPEND launcher ${theirs})
  endif()
  set_target_properties(${target} PROPERTIES CXX_LINKER_LAUNCHER "${launcher}")
endfunction()

# The flags that align the timed code of a card (the reference, the student and
# the bench, where a side made only of headers compiles) on cache lines: its
# functions and its loops.
# Where the linker puts a loop moves its time: rmsnorm_fwd's unchanged sides
# read a geomean of 1.52 to 2.00 as other code ahead of them moved their
# functions by 16-byte steps, reproducibly per binary, so an unrelated change
# to the harness or to another card could move a ratio by 30%. Aligned, every
# loop starts at the same place in its cache line wherever the function lands:
# 1.81 to 1.85 over six placements. For the `language` (C or CXX) compiler: GCC
# and Clang 13 on; elsewhere none. Decided once per project and language.
function(_forge_timed_code_flags language out)
  get_property(known GLOBAL PROPERTY _FORGE_TIMED_CODE_FLAGS_${language} SET)
  if(known)
    get_property(flags GLOBAL PROPERTY _FORGE_TIMED_CODE_FLAGS_${language})
    set(${out} "${flags}" PARENT_SCOPE)
    return()
  endif()
  set(flags "")
  set(id "${CMAKE_${language}_COMPILER_ID}")
  if(id STREQUAL "GNU" OR (id STREQUAL "Clang" AND CMAKE_${language}_COMPILER_VERSION VERSION_GREATER_EQUAL 13))
    set(flags -falign-functions=64 -falign-loops=64)
  endif()
  set_property(GLOBAL PROPERTY _FORGE_TIMED_CODE_FLAGS_${language} "${flags}")
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# Those flags as compile options for the C++ and C sources a target compiles
# itself (a vendored kernel is often C), as `out`: one generator expression per
# enabled language that has flags. Decided once per set of enabled languages.
function(_forge_align_options enabled_languages out)
  get_property(options GLOBAL PROPERTY _FORGE_ALIGN_OPTIONS)
  get_property(decided_for GLOBAL PROPERTY _FORGE_ALIGN_OPTIONS_FOR)
  if(NOT "${decided_for}" STREQUAL "|${enabled_languages}")
    set(options "")
    foreach(language IN ITEMS CXX C)
      if(language IN_LIST enabled_languages)
        _forge_timed_code_flags(${language} flags)
        if(flags)
          list(APPEND options "$<$<COMPILE_LANGUAGE:${language}>:${flags}>")
        endif()
      endif()
    endforeach()
    set_property(GLOBAL PROPERTY _FORGE_ALIGN_OPTIONS "${options}")
    set_property(GLOBAL PROPERTY _FORGE_ALIGN_OPTIONS_FOR "|${enabled_languages}")
  endif()
  set(${out} "${options}" PARENT_SCOPE)
endfunction()

# The languages of a card's sources (C, CXX, CUDA, by extension; headers have
# none) as `out`. A source in a language the project does not enable is
# refused: CMake would leave it out of the build without a word (a vendored
# .c kernel in a C++-only project), and the link would fail later on
# undefined references, far from the cause.
function(_forge_card_languages context card files enabled_languages out)
  # At once by pattern (a file name's last extension, after at least one other
  # character): the loop below only finds the file to name when one is refused.
  set(languages "")
  set(joined ";${files};")
  if(joined MATCHES "[^/;]\\.c;")
    list(APPEND languages C)
  endif()
  if(joined MATCHES "[^/;]\\.(cpp|cc|cxx|C);")
    list(APPEND languages CXX)
  endif()
  if(joined MATCHES "[^/;]\\.cu;")
    list(APPEND languages CUDA)
  endif()
  set(refused FALSE)
  foreach(language IN LISTS languages)
    if(NOT language IN_LIST enabled_languages)
      set(refused TRUE)
    endif()
  endforeach()
  if(NOT refused)
    set(${out} "${languages}" PARENT_SCOPE)
    return()
  endif()
  set(languages "")
  foreach(file IN LISTS files)
    cmake_path(GET file EXTENSION LAST_ONLY extension)
    if(extension STREQUAL ".c")
      set(language C)
    elseif(extension MATCHES "^\\.(cpp|cc|cxx|C)$")
      set(language CXX)
    elseif(extension STREQUAL ".cu")
      set(language CUDA)
    else()
      continue()
    endif()
    if(NOT language IN_LIST enabled_languages)
      # The project's languages with this one added, in the usual order.
      set(wanted ${enabled_languages} ${language})
      list(REMOVE_ITEM wanted NONE)
      set(project_languages "")
      foreach(known IN ITEMS C CXX CUDA)
        if(known IN_LIST wanted)
          list(APPEND project_languages ${known})
          list(REMOVE_ITEM wanted ${known})
        endif()
      endforeach()
      list(APPEND project_languages ${wanted})
      list(JOIN project_languages " " project_languages)
      cmake_path(RELATIVE_PATH file BASE_DIRECTORY "${card}" OUTPUT_VARIABLE shown)
      message(FATAL_ERROR "${context}: ${shown} is ${language}, a language this project does not enable, "
        "so CMake would leave it out of the build and the bench would fail to link on its functions. Enable "
        "${language} before forge_add_operator(): project(<name> LANGUAGES ${project_languages}), or "
        "enable_language(${language}).")
    endif()
    list(APPEND languages ${language})
  endforeach()
  list(REMOVE_DUPLICATES languages)
  set(${out} "${languages}" PARENT_SCOPE)
endfunction()

# Whether compiler `flags` optimise: the last -O<level> (or MSVC's /O<level>)
# among them is one of -O, -O1 ... -O4, -Ofast, -Os, -Oz, /O1, /O2, /Ox. -O0,
# -Og, /Od and no level at all (GCC, Clang and nvcc's host code then build
# unoptimised) do not.
function(_forge_flags_optimize flags out)
  separate_arguments(arguments NATIVE_COMMAND "${flags}")
  set(seen FALSE)
  set(level "")
  foreach(argument IN LISTS arguments)
    if(argument MATCHES "^[-/]O([0-9]*|fast|s|z|g|d|x)$")
      set(level "${CMAKE_MATCH_1}")
      set(seen TRUE)
    endif()
  endforeach()
  if(seen AND NOT level MATCHES "^(0|g|d)$")
    set(${out} 1 PARENT_SCOPE)
  else()
    set(${out} 0 PARENT_SCOPE)
  endif()
endfunction()

# `text` as the body of a C string literal inside a generator expression.
function(_forge_definition_text text out)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE ">" "$<ANGLE-R>" text "${text}")
  string(REPLACE "," "$<COMMA>" text "${text}")
  string(REPLACE ";" "$<SEMICOLON>" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The flags `languages` compile with in `config` (CMAKE_<LANG>_FLAGS and
# CMAKE_<LANG>_FLAGS_<CONFIG>, then for C++ and C the timed code's alignment), as
# <LANG>_flags in the caller, and whether
# every language's flags optimise, as `optimized_out`.
function(_forge_config_flags config languages optimized_out)
  string(TOUPPER "${config}" upper)
  set(optimized 1)
  foreach(language IN LISTS languages)
    set(flags "${CMAKE_${language}_FLAGS}")
    if(NOT config STREQUAL "")
      string(APPEND flags " ${CMAKE_${language}_FLAGS_${upper}}")
    endif()
    if(language MATCHES "^(CXX|C)$")
      _forge_timed_code_flags(${language} timed_code_flags)
      list(JOIN timed_code_flags " " timed_code_flags)
      string(APPEND flags " ${timed_code_flags}")  # as the card's code compiles
    endif()
    string(STRIP "${flags}" flags)
    _forge_flags_optimize("${flags}" language_optimizes)
    if(NOT language_optimizes)
      set(optimized 0)
    endif()
    set(${language}_flags "${flags}" PARENT_SCOPE)
  endforeach()
  set(${optimized_out} ${optimized} PARENT_SCOPE)
endfunction()

# Each side's compile options beyond the flags, per language of the card,
# compiled into the bench for eval.json's "build" (a notice when they differ):
# each side's sources compile in its object library, a side made only of
# headers in the bench. Read at generate time, so
# options set after forge_add_operator() count, as do those of what each side
# links; a raw string in a generated header keeps any quote or backslash.
function(_forge_record_side_options bench reference student languages)
  # A side made only of headers compiles inside the bench, with its options.
  foreach(side IN ITEMS reference student)
    get_target_property(type ${${side}} TYPE)
    if(NOT type STREQUAL "OBJECT_LIBRARY")
      set(${side} ${bench})
    endif()
  endforeach()
  # One header per language, as that language's compile sees each side's
  # options (OpenMP::OpenMP_C's -fopenmp is C's alone), under one per
  # configuration (a multi-config generator's may differ) that joins them.
  set(language "$<COMPILE_LANGUAGE>")
  # "<language>=<option>\t<option>...\n", each option a raw string of its own.
  set(between ")forge_options\" \"\\t\" R\"forge_options(")
  string(CONCAT per_language
    "#define FORGE_BENCH_REFERENCE_OPTIONS_${language} \"${language}=\" "
    "R\"forge_options($<JOIN:$<TARGET_PROPERTY:${reference},COMPILE_OPTIONS>,${between}>)forge_options\" \"\\n\"\n"
    "#define FORGE_BENCH_STUDENT_OPTIONS_${language} \"${language}=\" "
    "R\"forge_options($<JOIN:$<TARGET_PROPERTY:${student},COMPILE_OPTIONS>,${between}>)forge_options\" \"\\n\"\n")
  set(directory "${CMAKE_CURRENT_BINARY_DIR}/${bench}_sides/$<CONFIG>")
  file(GENERATE OUTPUT "${directory}/${language}/forge_sides.h" CONTENT "${per_language}" TARGET ${bench})
  set(directory_text "${CMAKE_CURRENT_BINARY_DIR}/${bench}_sides")
  if(directory_text MATCHES "[\\\">,;]")
    _forge_definition_text("${directory_text}" directory_text)
  endif()
  if(languages STREQUAL "CXX")
    # One language (a HOST card of C++): the bench includes its header, and
    # definitions name its strings, with no second header to join them (a
    # generated file costs a write and a compare at every configure).
    target_compile_definitions(${bench} PRIVATE
      "FORGE_BENCH_SIDES_HEADER=\"${directory_text}/$<CONFIG>/CXX/forge_sides.h\""
      FORGE_BENCH_REFERENCE_OPTIONS=FORGE_BENCH_REFERENCE_OPTIONS_CXX
      FORGE_BENCH_STUDENT_OPTIONS=FORGE_BENCH_STUDENT_OPTIONS_CXX)
    return()
  endif()
  # The header that joins them depends on the languages alone: made once for each list.
  string(REPLACE ";" "_" languages_key "${languages}")
  get_property(joined GLOBAL PROPERTY _FORGE_SIDES_JOINED_${languages_key})
  if(NOT joined)
    foreach(side IN ITEMS REFERENCE STUDENT)
      set(definition "#define FORGE_BENCH_${side}_OPTIONS")
      foreach(each IN LISTS languages)
        string(APPEND definition " FORGE_BENCH_${side}_OPTIONS_${each}")
      endforeach()
      string(APPEND joined "${definition}\n")
    endforeach()
    foreach(each IN LISTS languages)
      string(PREPEND joined "#include \"${each}/forge_sides.h\"\n")
    endforeach()
    set_property(GLOBAL PROPERTY _FORGE_SIDES_JOINED_${languages_key} "${joined}")
  endif()
  file(GENERATE OUTPUT "${directory}/forge_sides.h" CONTENT "${joined}")
  target_compile_definitions(${bench} PRIVATE
    "FORGE_BENCH_SIDES_HEADER=\"${directory_text}/$<CONFIG>/forge_sides.h\"")
endfunction()

# How the bench is built, compiled into it for eval.json's "build": the build
# type, the compilers and the flags of its languages (C++; CUDA for a CUDA card;
# C where `card_languages` has it), and whether they optimise, and each side's
# options (`student`: the card's student target). FORGE_BENCH_MAIN reads the
# definitions. A single-config build that does not optimise is a
# configure warning, once per project: its ratios would time unoptimised code.
# A multi-config generator picks the configuration at build time, so there
# eval.json alone says it.
function(_forge_record_build context target reference student backend card_languages)
  set(languages CXX)
  if(backend STREQUAL "CUDA")
    list(APPEND languages CUDA)
  endif()
  if("C" IN_LIST card_languages)
    list(APPEND languages C)
  endif()
  # What follows reads only these languages' compilers and flags, the build
  # type or the configurations, and the GPUs CMake found: a card whose inputs
  # an earlier card had (most cards of a project) gets its definitions again.
  string(ASCII 31 separator)
  set(key "${languages}${separator}${CMAKE_BUILD_TYPE}${separator}${CMAKE_CONFIGURATION_TYPES}")
  string(APPEND key "${separator}${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
  set(configs ${CMAKE_BUILD_TYPE} ${CMAKE_CONFIGURATION_TYPES})
  string(TOUPPER "${configs}" configs)
  foreach(language IN LISTS languages)
    string(APPEND key "${separator}${CMAKE_${language}_COMPILER_ID}${separator}${CMAKE_${language}_COMPILER_VERSION}"
      "${separator}${CMAKE_${language}_FLAGS}")
    foreach(config IN LISTS configs)
      string(APPEND key "${separator}${CMAKE_${language}_FLAGS_${config}}")
    endforeach()
  endforeach()
  string(MD5 key "${key}")
  get_property(definitions GLOBAL PROPERTY _FORGE_BUILD_RECORD_${key})
  if(definitions)
    target_compile_definitions(${target} PRIVATE ${definitions})
    _forge_record_side_options(${target} ${reference} ${student} "${languages}")
    return()
  endif()

  foreach(language IN ITEMS CUDA C)
    set(${language}_flags "")
    set(${language}_compiler "")
  endforeach()
  set(architectures "")
  if(backend STREQUAL "CUDA")
    # The bench's CUDA_ARCHITECTURES as the build ends up with it, `native`
    # resolved to the GPUs CMake found (`all` and `all-major` stay: nvcc
    # resolves them itself); `\;` keeps the list in one definition.
    set(property "$<TARGET_PROPERTY:CUDA_ARCHITECTURES>")
    list(JOIN CMAKE_CUDA_ARCHITECTURES_NATIVE "$<SEMICOLON>" native)
    set(architectures "$<JOIN:$<IF:$<STREQUAL:${property},native>,${native},${property}>,\\$<SEMICOLON>>")
  endif()
  foreach(language IN LISTS languages)
    _forge_definition_text("${CMAKE_${language}_COMPILER_ID} ${CMAKE_${language}_COMPILER_VERSION}" ${language}_compiler)
  endforeach()

  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    # Each configuration's values, chosen by $<CONFIG> when the bench compiles.
    set(build_type "$<CONFIG>")
    set(optimized_configs "")
    foreach(language IN LISTS languages)
      set(config_flags_${language} "")
    endforeach()
    foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
      _forge_config_flags("${config}" "${languages}" optimized)
      if(optimized)
        list(APPEND optimized_configs "${config}")
      endif()
      foreach(language IN LISTS languages)
        _forge_definition_text("${${language}_flags}" flags)
        string(APPEND config_flags_${language} "$<$<CONFIG:${config}>:${flags}>")
      endforeach()
    endforeach()
    foreach(language IN LISTS languages)
      set(${language}_flags "${config_flags_${language}}")
    endforeach()
    list(JOIN optimized_configs "," optimized_configs)
    if(optimized_configs STREQUAL "")
      set(optimized 0)
    else()
      set(optimized "$<IF:$<CONFIG:${optimized_configs}>,1,0>")
    endif()
  else()
    _forge_definition_text("${CMAKE_BUILD_TYPE}" build_type)
    _forge_config_flags("${CMAKE_BUILD_TYPE}" "${languages}" optimized)
    get_property(warned GLOBAL PROPERTY _FORGE_UNOPTIMIZED_WARNED)
    if(NOT optimized AND NOT warned)
      set_property(GLOBAL PROPERTY _FORGE_UNOPTIMIZED_WARNED TRUE)
      if(CMAKE_BUILD_TYPE STREQUAL "")
        set(why "CMAKE_BUILD_TYPE is empty")
      else()
        set(why "CMAKE_BUILD_TYPE is ${CMAKE_BUILD_TYPE}")
      endif()
      list(JOIN languages "/" language_names)
      message(WARNING "${context}: the benches of this build are compiled without optimisation "
        "(${why}, and the ${language_names} flags carry no -O1, -O2, -O3, -Ofast or -Os, or end with -O0), "
        "so every ratio would time unoptimised code. Configure with -DCMAKE_BUILD_TYPE=Release "
        "(or RelWithDebInfo), or put an optimisation level in CMAKE_CXX_FLAGS. "
        "eval.json records each bench's build (\"build\": {\"optimized\": false, ...}). "
        "This warning is given once, for every operator of the build.")
    endif()
    foreach(language IN LISTS languages)
      _forge_definition_text("${${language}_flags}" ${language}_flags)
    endforeach()
  endif()

  # A bracket in a value would hold a list's items together: such a definition
  # goes on alone, and the record is not kept for the next card.
  set(definitions "FORGE_BENCH_OPTIMIZED=${optimized}")
  set(keep TRUE)
  set(names BUILD_TYPE COMPILER FLAGS CUDA_COMPILER CUDA_FLAGS CUDA_ARCHITECTURES C_COMPILER C_FLAGS)
  set(variables build_type CXX_compiler CXX_flags CUDA_compiler CUDA_flags architectures C_compiler C_flags)
  foreach(name variable IN ZIP_LISTS names variables)
    set(definition "FORGE_BENCH_${name}=\"${${variable}}\"")
    if(definition MATCHES "[][]")
      set(keep FALSE)
      target_compile_definitions(${target} PRIVATE "${definition}")
    else()
      list(APPEND definitions "${definition}")
    endif()
  endforeach()
  target_compile_definitions(${target} PRIVATE ${definitions})
  if(keep)
    set_property(GLOBAL PROPERTY _FORGE_BUILD_RECORD_${key} "${definitions}")
  endif()
  _forge_record_side_options(${target} ${reference} ${student} "${languages}")
endfunction()
