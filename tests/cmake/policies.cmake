# forge_add_operator() behaves alike installed and from source, whatever
# policies the calling project runs under: the package's modules pin their own
# (block(SCOPE_FOR POLICIES) in ForgeKernel.cmake). Run in both modes.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/consumer")

# A project written for an older CMake: CMP0077 (option() honours a normal
# variable, 3.13) is OLD there. Its FORGE_BENCH_QUICK must still reach the
# benches: under the caller's policies the package's option() would clear it.
set(CONSUMER_QUICK OFF)
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST)"
  MINIMUM 3.12 PREAMBLE "set(FORGE_BENCH_QUICK ON)")
configure_consumer("${source}" "${WORK_DIR}/scaffold" result log)  # scaffolds, then refuses
declare_placeholder("${source}/scale")
# A first configure: only there does option() meet the variable without a cache entry.
configure_ok("${source}" "${WORK_DIR}/older")
file(STRINGS "${WORK_DIR}/older/CTestTestfile.cmake" bench REGEX "^add_test\\(.*forge\\.scale\\.bench")
expect_match("${bench}" "\"--operator\" \"scale\" \"--quick\"" "a CMake 3.12 project's FORGE_BENCH_QUICK")

# A project written for the newest CMake this one knows: an empty value is
# refused (CMP0174 would make DIRECTORY "" the calling directory on CMake 3.31
# and later, and the card's default directory before), and nothing is written.
file(REMOVE_RECURSE "${source}")
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST DIRECTORY \"\")" MINIMUM ${CMAKE_VERSION})
snapshot("${source}" before)
configure_consumer("${source}" "${WORK_DIR}/newest" result log)
snapshot("${source}" after)
if(result EQUAL 0)
  fail("a CMake ${CMAKE_VERSION} project's DIRECTORY \"\" was accepted:\n${log}")
endif()
string(REGEX REPLACE "[ \t\n]+" " " log "${log}")  # CMake wraps the message's lines
expect_match("${log}" "forge_add_operator\\(scale\\): DIRECTORY is empty; give it a value or leave the keyword out" "DIRECTORY \"\"")
if(NOT before STREQUAL after)
  fail("DIRECTORY \"\" wrote files before it was refused:\n${after}")
endif()

# The installed modules point to README.md beside them: it is installed there.
if(MODE STREQUAL "installed")
  file(GLOB_RECURSE config "${FORGE_PREFIX}/ForgeKernelConfig.cmake")
  cmake_path(GET config PARENT_PATH package_dir)
  if(NOT EXISTS "${package_dir}/README.md")
    fail("the function's reference (README.md) is not installed beside ${config}")
  endif()
  file(READ "${package_dir}/README.md" reference)
  expect_match("${reference}" "## forge_add_operator\\(\\)" "the installed reference")
  file(READ "${package_dir}/ForgeOperator.cmake" module)
  expect_match("${module}" "README\\.md beside this file" "the installed module points to it")
endif()
