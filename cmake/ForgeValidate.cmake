# Configure-time validation: every registered contract is checked by one
# `forge check` process at the end of configure, together with the static
# card checks (prep-step-missing, prep-uses-student), and any refusal stops
# configure with every finding printed as `file:line:col: error[code]: message`.
include_guard(GLOBAL)

# Records a finding of a static card check, printed with the contracts' findings.
function(_forge_card_finding file line column code message)
  set_property(GLOBAL APPEND PROPERTY _FORGE_CARD_FINDINGS "${file}:${line}:${column}: error[${code}]: ${message}")
endfunction()

# Where the #include directives the compiler sees start in C/C++ `text`: the
# offset of each one's `#`. Comments and string and character literals are
# skipped, so an include written inside them (a commented-out line) is none.
function(_forge_source_includes text offsets_var)
  # A directive starts a line (after blanks); a raw string opens with R"delim(.
  set(directive "\n[ \t]*#[ \t]*include[ \t]*[<\"][^>\"\n]+[>\"]")
  set(raw_string "R\"[^ ()\\\t\n]*\\(")
  set(token_start "//|/\\*|${raw_string}|\"|'|${directive}")
  set(offsets "")
  set(rest "\n${text}")  # the newline lets a directive on the first line match
  set(position -1)       # the offset of `rest` in `text`
  string(REGEX MATCH "${token_start}" token "${rest}")
  while(NOT token STREQUAL "")
    # The match starts at the first occurrence of the text it matched.
    string(FIND "${rest}" "${token}" at)
    string(SUBSTRING "${rest}" ${at} -1 rest)
    math(EXPR position "${position} + ${at}")
    string(LENGTH "${token}" skip)
    if(token STREQUAL "//")
      # To the end of the line; a backslash at its end continues the comment.
      string(REGEX MATCH "^//([^\\\n]|\\\\.)*" comment "${rest}")
      string(LENGTH "${comment}" skip)
    elseif(token STREQUAL "/*")
      string(FIND "${rest}" "*/" end)
      if(end EQUAL -1)
        break()
      endif()
      math(EXPR skip "${end} + 2")
    elseif(token MATCHES "^R\"(.*)\\($")
      set(close ")${CMAKE_MATCH_1}\"")
      string(FIND "${rest}" "${close}" end)
      if(end EQUAL -1)
        break()
      endif()
      string(LENGTH "${close}" close_length)
      math(EXPR skip "${end} + ${close_length}")
    elseif(token STREQUAL "\"" OR token STREQUAL "'")
      # A literal ends on its line; a lone quote (a digit separator, 1'000) is skipped.
      string(REGEX MATCH "^${token}([^${token}\\\n]|\\\\.)*${token}" literal "${rest}")
      if(NOT literal STREQUAL "")
        string(LENGTH "${literal}" skip)
      endif()
    else()
      string(FIND "${token}" "#" hash)
      math(EXPR offset "${position} + ${hash}")
      list(APPEND offsets ${offset})
    endif()
    string(SUBSTRING "${rest}" ${skip} -1 rest)
    math(EXPR position "${position} + ${skip}")
    string(REGEX MATCH "${token_start}" token "${rest}")
  endwhile()
  set(${offsets_var} "${offsets}" PARENT_SCOPE)
endfunction()

# prep-uses-student: a prep source or header that includes a file the STUDENT
# list names (matched by file name, wherever the include points), or, by a
# quoted path from its own directory ("../student/util.h"), any file in the
# student's directories outside the reference's and the prep step's. The prep
# target's include path cannot reach the student's directory; a relative path
# can, so it is named here with its line.
function(_forge_check_prep_includes name prep_files student_files student_dirs own_dirs)
  set(student_names "")
  foreach(file IN LISTS student_files)
    cmake_path(GET file FILENAME file_name)
    list(APPEND student_names "${file_name}")
  endforeach()

  foreach(source IN LISTS prep_files)
    if(NOT EXISTS "${source}")
      continue()  # the build names a missing source
    endif()
    file(READ "${source}" text)
    _forge_source_includes("${text}" offsets)
    foreach(offset IN LISTS offsets)
      string(SUBSTRING "${text}" ${offset} -1 from_directive)
      string(REGEX MATCH "^#[ \t]*include[ \t]*[<\"]([^>\"\n]+)[>\"]" directive "${from_directive}")
      set(header "${CMAKE_MATCH_1}")
      cmake_path(GET header FILENAME header_name)
      set(from_student FALSE)
      if(header_name IN_LIST student_names)
        set(from_student TRUE)
      elseif(directive MATCHES "\"$")
        cmake_path(GET source PARENT_PATH source_dir)
        cmake_path(ABSOLUTE_PATH header BASE_DIRECTORY "${source_dir}" NORMALIZE OUTPUT_VARIABLE resolved)
        if(EXISTS "${resolved}")
          _forge_path_under("${resolved}" "${student_dirs}" in_student)
          _forge_path_under("${resolved}" "${own_dirs}" in_own)
          if(in_student AND NOT in_own)
            set(from_student TRUE)
          endif()
        endif()
      endif()
      if(NOT from_student)
        continue()
      endif()
      # Where it is: count the lines before it.
      string(SUBSTRING "${text}" 0 ${offset} before)
      string(REGEX MATCHALL "\n" newlines "${before}")
      list(LENGTH newlines line)
      math(EXPR line "${line} + 1")
      string(FIND "${before}" "\n" line_start REVERSE)
      math(EXPR column "${offset} - ${line_start}")
      _forge_card_finding("${source}" ${line} ${column} prep-uses-student
        "the prep step of ${name} includes \"${header}\", a file of the student's (its STUDENT sources or their directory). The prep step runs outside every timed window and may use the reference, never the student: include the reference's header instead, or move what both need into the reference.")
    endforeach()
  endforeach()
endfunction()

# Whether `path` lies in one of `dirs` (or below it).
function(_forge_path_under path dirs out)
  foreach(dir IN LISTS dirs)
    cmake_path(IS_PREFIX dir "${path}" NORMALIZE inside)
    if(inside)
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} FALSE PARENT_SCOPE)
endfunction()

# `path:line:col: severity[code]: message` for one finding of `forge check --format json`.
function(_forge_format_finding path finding out)
  foreach(key IN ITEMS code severity message line column)
    string(JSON ${key} GET "${finding}" ${key})
  endforeach()
  set(where "${path}")
  if(NOT line STREQUAL "")  # a finding of the whole file: its JSON null line reads as empty
    string(APPEND where ":${line}:${column}")
  endif()
  set(${out} "${where}: ${severity}[${code}]: ${message}" PARENT_SCOPE)
endfunction()

# Appends to `report_var` the findings of `forge check --format json`, and a
# prep-step-missing finding per prep entry of a contract in `without_prep`;
# adds the errors among them to `errors_var`.
function(_forge_read_check_json json contracts without_prep report_var errors_var)
  set(report "${${report_var}}")
  set(errors "${${errors_var}}")
  set(index 0)
  foreach(contract_path IN LISTS contracts)
    string(JSON contract GET "${json}" contracts ${index})
    math(EXPR index "${index} + 1")
    string(JSON count LENGTH "${contract}" findings)
    if(count GREATER 0)
      math(EXPR last "${count} - 1")
      foreach(i RANGE ${last})
        string(JSON finding GET "${contract}" findings ${i})
        _forge_format_finding("${contract_path}" "${finding}" line)
        string(APPEND report "\n${line}")
      endforeach()
    endif()
    if(NOT contract_path IN_LIST without_prep)
      continue()
    endif()
    # The prep-produced symmetrize entries of a card that has no prep step.
    string(JSON count ERROR_VARIABLE absent LENGTH "${contract}" prep_entries)
    if(absent OR count EQUAL 0)
      continue()
    endif()
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON entry GET "${contract}" prep_entries ${i})
      foreach(key IN ITEMS subject line column)
        string(JSON ${key} GET "${entry}" ${key})
      endforeach()
      string(APPEND report "\n${contract_path}:${line}:${column}: error[prep-step-missing]: ${subject} is a symmetrize input produced outside the timed windows, but this operator has no prep step: pass its sources with PREP (PREP prep/prep.hpp prep/prep.cpp scaffolds a stub there; the card's README.md says how to fill it in).")
      math(EXPR errors "${errors} + 1")
    endforeach()
  endforeach()
  set(${report_var} "${report}" PARENT_SCOPE)
  set(${errors_var} "${errors}" PARENT_SCOPE)
endfunction()

# One `forge check` over every registered contract, plus prep-step-missing for
# the cards without PREP sources whose contract needs a prep step.
function(_forge_validate)
  get_property(contracts GLOBAL PROPERTY _FORGE_CONTRACTS)
  if(NOT contracts)
    return()
  endif()
  get_property(without_prep GLOBAL PROPERTY _FORGE_CONTRACTS_WITHOUT_PREP)
  # The findings, one per line (a message may hold a semicolon: no CMake list).
  get_property(card_findings GLOBAL PROPERTY _FORGE_CARD_FINDINGS)
  list(LENGTH card_findings errors)
  list(JOIN card_findings "\n" report)

  _forge_configure_tool(forge)
  execute_process(COMMAND "${forge}" check --format json ${contracts}
    RESULT_VARIABLE result OUTPUT_VARIABLE json ERROR_VARIABLE stderr)
  if(NOT result MATCHES "^(0|13)$")
    message(FATAL_ERROR "ForgeKernel: `${forge} check` failed (exit ${result}) on the operators' contracts:\n${stderr}")
  endif()
  if(result EQUAL 13)
    math(EXPR errors "${errors} + 1")
  endif()

  if(without_prep AND NOT json MATCHES "\"prep_entries\"")
    message(WARNING "ForgeKernel: ${forge} does not report the contracts' prep entries "
      "(`forge check --format json` without \"prep_entries\"), so prep-step-missing is not checked: "
      "use the forge of this ForgeKernel version.")
  endif()
  # Reading the JSON contract by contract parses it again each time: skip it
  # when there is no finding and no prep entry anywhere (the usual configure).
  if(json MATCHES "\"code\"" OR json MATCHES "\"prep_entries\": *\\[[ \n]*{")
    _forge_read_check_json("${json}" "${contracts}" "${without_prep}" report errors)
  endif()

  string(STRIP "${report}" report)
  if(NOT report STREQUAL "")
    message(NOTICE "${report}")
  endif()
  if(errors GREATER 0)
    message(FATAL_ERROR "ForgeKernel: operator cards refused (findings above). "
      "Configure stops until every window.toml is declared and consistent and every card's prep step is in place: "
      "fix each and configure again (`forge check <card>` rechecks a window.toml alone, not the card's prep step "
      "or its includes).")
  endif()
endfunction()
