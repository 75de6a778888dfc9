# prep-step-missing: a contract with a prep-produced symmetrize input, and no
# PREP sources to produce it, stops configure at the entry's line.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/consumer")
set(card "${source}/scale")
set(build "${WORK_DIR}/build")
write_consumer("${source}" "forge_add_operator(scale BACKEND HOST)")
configure_consumer("${source}" "${build}" result log)  # scaffolds
# `x2` reaches both timed calls from a prep step (entry at line 13).
file(WRITE "${card}/window.toml" [=[
schema_version = 1

[reference]
inputs = ["x", "x2"]
outputs = ["y"]

[student]
inputs = ["x", "x2"]
outputs = ["y"]

# x2 = x * x, made outside every timed window

[[asymmetry]]
ref_input = "x2"
class = "symmetrize"
produced_by = "prep"
derived_from = "x"
shape = [4]
dtype = "fp32"
]=])

# No PREP sources, though the contract needs a prep step.
configure_consumer("${source}" "${build}" result log)
if(result EQUAL 0)
  fail("configure accepted a contract with a prep-produced input and no PREP sources:\n${log}")
endif()
expect_match("${log}" "${card}/window.toml:13:[0-9]+: error\\[prep-step-missing\\]: [^\n]*ref_input=x2" "prep-step-missing")

