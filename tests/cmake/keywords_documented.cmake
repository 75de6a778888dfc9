# forge_add_operator()'s keywords are written once, in ForgeOperator.cmake; the
# signature in cmake/README.md must list the same ones, each taking what the
# module parses it with (nothing, one value, or a list: `<x>...`). Fails naming
# a keyword the module has and the page lacks, or the other way round.
#   cmake -DFORGE_SOURCE_DIR=<repo> -P keywords_documented.cmake
cmake_minimum_required(VERSION 3.25)
function(fail message)
  message(FATAL_ERROR "FAILED: ${message}")
endfunction()

# The module's lists, as forge_add_operator() reads them.
include("${FORGE_SOURCE_DIR}/cmake/ForgeOperator.cmake")
set(module "")
set(kinds option "one value" list)
set(properties _FORGE_OPERATOR_OPTIONS _FORGE_OPERATOR_ONE_VALUE_KEYWORDS _FORGE_OPERATOR_MULTI_VALUE_KEYWORDS)
foreach(kind property IN ZIP_LISTS kinds properties)
  get_property(keywords GLOBAL PROPERTY ${property})
  foreach(keyword IN LISTS keywords)
    list(APPEND module "${keyword} (${kind})")
  endforeach()
endforeach()
if(NOT module)
  fail("ForgeOperator.cmake defines no keyword lists")
endif()

# The page's: `[KEYWORD ...]` in the signature block that opens
# "```cmake\nforge_add_operator(<name>" and ends at the next fence.
set(readme "${FORGE_SOURCE_DIR}/cmake/README.md")
file(READ "${readme}" text)
string(FIND "${text}" "```cmake\nforge_add_operator(<name>" begin)
if(begin EQUAL -1)
  fail("${readme} has no signature block (```cmake, then forge_add_operator(<name>)")
endif()
string(SUBSTRING "${text}" ${begin} -1 block)
string(FIND "${block}" "\n```" end)
string(SUBSTRING "${block}" 0 ${end} block)
string(REGEX MATCHALL "\\[[A-Z_]+[^]\n]*\\]" entries "${block}")
set(documented "")
foreach(entry IN LISTS entries)
  string(REGEX MATCH "^\\[([A-Z_]+)( [^]]*)?\\]$" entry "${entry}")
  set(keyword "${CMAKE_MATCH_1}")
  set(value "${CMAKE_MATCH_2}")
  if(value STREQUAL "")
    set(kind option)
  elseif(value MATCHES "\\.\\.\\.$")
    set(kind list)
  else()
    set(kind "one value")
  endif()
  list(APPEND documented "${keyword} (${kind})")
endforeach()

set(missing ${module})
list(REMOVE_ITEM missing ${documented})
set(extra ${documented})
list(REMOVE_ITEM extra ${module})
if(missing OR extra)
  list(JOIN missing ", " missing)
  list(JOIN extra ", " extra)
  fail("cmake/README.md's forge_add_operator() signature and ForgeOperator.cmake's keyword lists differ. \
In the module, not on the page: ${missing}. On the page, not in the module: ${extra}.")
endif()
list(JOIN module ", " module)
message(STATUS "keywords documented: ${module}")
