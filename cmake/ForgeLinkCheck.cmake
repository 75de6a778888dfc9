# The linker launcher of a card's link check (forge_<name>_student_link_check,
# forge_<name>_prep_link_check: ForgeOperator.cmake's _forge_add_link_check),
# the side linked on its own where its libraries cannot all be read as files.
# It runs the link it is given, its output shown as it comes; when the link
# fails, it says why in words: each symbol the linker could not find that a
# library given to the other side only defines is named with that library (its
# file, and its name as the user wrote it), with the fix. A library the linker
# finds by name (rt, -lfoo) is looked for as lib<name>.so or lib<name>.a where
# the linker looks (the link's -L directories, the compiler's own).
#
#   cmake -DSETTINGS=<file> -P ForgeLinkCheck.cmake -- <the link command>
#
# SETTINGS (written by file(GENERATE), so that targets' files are known):
# OPERATOR, SIDE (the student, the prep step), OTHER (the reference, the
# student), KEYWORD (REFERENCE_LIBRARIES, STUDENT_LIBRARIES), MAY_USE (what the
# side may link with), NM, SEARCH_DIRS, and the libraries given as KEYWORD:
# LIBRARIES (their names as written) and LIBRARY_<i> (the files of the i-th,
# empty for one found by name).
cmake_minimum_required(VERSION 3.25)

include("${SETTINGS}")
set(context "forge_add_operator(${OPERATOR})")

# The link command: everything after "--".
set(link "")
set(after FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after)
    string(REPLACE ";" "\\;" argument "${CMAKE_ARGV${i}}")
    list(APPEND link "${argument}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after TRUE)
  endif()
endforeach()
if(NOT link)
  message(FATAL_ERROR "${context}: ForgeLinkCheck.cmake was given no link command (after --).")
endif()

execute_process(COMMAND ${link} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output
  ECHO_OUTPUT_VARIABLE ECHO_ERROR_VARIABLE)
if(result EQUAL 0)
  return()
endif()

# What the linker could not find, as it printed it (GNU ld and gold: undefined
# reference to `name'; lld: undefined symbol: name), once each.
string(REGEX MATCHALL "undefined reference to [`'][^'\n]+'" references "${output}")
string(REGEX MATCHALL "undefined symbol: [^\n]+" symbols "${output}")
list(APPEND references ${symbols})
set(missing "")
foreach(reference IN LISTS references)
  string(REGEX REPLACE "^undefined (reference to [`']|symbol: )" "" symbol "${reference}")
  string(REGEX REPLACE "'$" "" symbol "${symbol}")
  list(APPEND missing "${symbol}")
endforeach()
list(REMOVE_DUPLICATES missing)

# Where the linker looks for a library given by name: the link's -L
# directories, then the compiler's.
set(search "")
foreach(argument IN LISTS link)
  if(argument MATCHES "^-L(.+)$")
    list(APPEND search "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(APPEND search ${SEARCH_DIRS})

# Which library given to the other side only defines each missing symbol.
set(library_lines "")
set(called "")
set(found "")
set(i 0)
foreach(name IN LISTS LIBRARIES)
  set(files ${LIBRARY_${i}})
  math(EXPR i "${i} + 1")
  if(NOT files AND name MATCHES "^(-l)?([A-Za-z0-9_.+-]+)$")
    foreach(directory IN LISTS search)
      foreach(candidate IN ITEMS "${directory}/lib${CMAKE_MATCH_2}.so" "${directory}/lib${CMAKE_MATCH_2}.a")
        if(EXISTS "${candidate}" AND NOT files)
          set(files "${candidate}")
        endif()
      endforeach()
    endforeach()
  endif()
  foreach(file IN LISTS files)
    set(arguments --extern-only --format=posix --defined-only --demangle)
    if(file MATCHES "\\.so(\\.[0-9.]*)?$")
      list(PREPEND arguments -D)
    endif()
    execute_process(COMMAND "${NM}" ${arguments} "${file}" RESULT_VARIABLE listed OUTPUT_VARIABLE listing
      ERROR_QUIET)
    if(NOT listed EQUAL 0)
      continue()
    endif()
    cmake_path(GET file FILENAME shown)
    foreach(symbol IN LISTS missing)
      string(FIND "\n${listing}" "\n${symbol} " at)
      if(NOT at EQUAL -1 AND NOT symbol IN_LIST found)
        list(APPEND found "${symbol}")
        list(APPEND called "${name}")
        string(APPEND library_lines "  undefined reference to `${symbol}', defined only by ${shown} (${KEYWORD} ${name})\n")
      endif()
    endforeach()
  endforeach()
endforeach()

string(CONCAT where "Its link check links it with those alone, and the bench links every side's libraries, "
  "so the bench's own link would have taken")
if(library_lines)
  list(REMOVE_DUPLICATES called)
  list(LENGTH called count)
  list(JOIN called ", " names)
  set(it it)
  if(count GREATER 1)
    set(it them)
  endif()
  string(CONCAT text "${SIDE} calls a library given to ${OTHER} only (${KEYWORD}), and it may use ${MAY_USE} "
    "only. ${where} it:\n${library_lines}")
  set(others ${missing})
  list(REMOVE_ITEM others ${found})
  if(others)
    list(JOIN others "', `" others)
    string(APPEND text "It also calls `${others}', which the linker's message above places.\n")
  endif()
  string(APPEND text "To give ${names} to both sides, move ${it} from ${KEYWORD} to LIBRARIES; "
    "else make ${SIDE} stop calling ${it}.")
else()
  string(CONCAT text "${SIDE} does not link on its own; it may use ${MAY_USE} only. ${where} what the "
    "linker's message above names: ${OTHER}'s code, or a library given to ${OTHER} only (${KEYWORD}) that "
    "could not be read here. Make ${SIDE} stop calling it, or give the library to both sides in LIBRARIES.")
endif()
message(FATAL_ERROR "${context}: ${text}")
