# Scaffolding an operator card from templates/: every missing file of the card
# is created with the operator's name substituted; a file that exists is never
# touched. Each file is written to a temporary name and renamed into place
# without replacing, so a reader never sees half a file and two configures
# racing on one card cannot overwrite each other (or the author).
include_guard(GLOBAL)

# The default files of each role for `backend`, as absolute paths in `card`:
# what forge_add_operator() builds when the role's keyword is not given, and
# what the card is scaffolded with: <out>_REFERENCE, <out>_STUDENT and
# <out>_BENCH. The prep step has none: its stub (templates/prep) is scaffolded
# only where PREP names prep/prep.hpp or prep/prep.cpp.
function(_forge_card_files card backend out)
  if(backend STREQUAL "CUDA")
    set(ext cu)
  else()
    set(ext cpp)
  endif()
  set(${out}_REFERENCE "${card}/reference/reference.hpp" "${card}/reference/reference.${ext}" PARENT_SCOPE)
  set(${out}_STUDENT "${card}/student/student.hpp" "${card}/student/student.${ext}" PARENT_SCOPE)
  set(${out}_BENCH "${card}/bench.${ext}" PARENT_SCOPE)
endfunction()

# Creates the missing files among `files` (absolute paths in `card`) that sit
# where the card layout has a template. Backend-specific templates live in templates/host and
# templates/cuda, the rest (contract, README, prep step) in templates/.
# `own_sides`: the sides (reference, student) whose files the author named: the
# bench template calls the placeholder's, so a bench scaffolded beside them says
# where to call the author's instead, and so does configure.
function(_forge_scaffold name card backend files own_sides)
  get_property(templates GLOBAL PROPERTY _FORGE_TEMPLATES_DIR)
  string(TOLOWER "${backend}" backend_dir)
  set(created "")
  set(bench "")
  foreach(file IN LISTS files)
    if(EXISTS "${file}")
      continue()
    endif()
    file(RELATIVE_PATH relative "${card}" "${file}")
    if(relative MATCHES "^(window\\.toml|README\\.md|prep/prep\\.(hpp|cpp))$")
      set(template "${templates}/${relative}")
    elseif(relative MATCHES "^(reference/reference|student/student|bench)\\.(hpp|cpp|cu)$"
           AND EXISTS "${templates}/${backend_dir}/${relative}")
      set(template "${templates}/${backend_dir}/${relative}")
    else()
      continue()  # a file of the author's own layout: the build names it if missing
    endif()
    file(READ "${template}" content)
    string(REPLACE "@FORGE_OPERATOR@" "${name}" content "${content}")
    if(relative MATCHES "^bench\\.")
      foreach(side IN LISTS own_sides)
        string(TOUPPER "${side}" keyword)
        string(REPLACE "#include \"${side}.hpp\""
          "// The ${side} is your own (forge_add_operator's ${keyword} files): include its header\n// here instead of the placeholder's (a C header inside extern \"C\" { ... }) and call it\n// in bench.${side} below.\n#include \"${side}.hpp\""
          content "${content}")
      endforeach()
    endif()

    cmake_path(GET file PARENT_PATH parent)
    file(MAKE_DIRECTORY "${parent}")
    string(RANDOM LENGTH 8 nonce)
    set(temporary "${file}.forge-${nonce}.tmp")
    file(WRITE "${temporary}" "${content}")
    file(RENAME "${temporary}" "${file}" NO_REPLACE RESULT renamed)
    # Not renamed: someone created the file since we looked, and theirs stays.
    # Renamed: CMake may have linked the new name without unlinking the old.
    file(REMOVE "${temporary}")
    if(renamed STREQUAL "0")
      list(APPEND created "${relative}")
      if(relative MATCHES "^bench\\.")
        set(bench "${relative}")
      endif()
    endif()
  endforeach()
  if(created)
    list(JOIN created ", " created)
    message(STATUS "forge_add_operator(${name}): scaffolded ${created} in ${card}")
  endif()
  if(bench AND own_sides)
    list(JOIN own_sides " and " sides)
    message(STATUS "forge_add_operator(${name}): ${bench} calls the placeholder's ${sides}; "
      "make it call yours (the comment above its #include says where)")
  endif()
endfunction()
