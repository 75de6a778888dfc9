// One name per dtype, however a declaration or a bench spells it: `torch.bfloat16`,
// `bfloat16` and `bf16` are one dtype (the Python oracle's normalize_dtype).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace forge {

// Python's str() of the value (null, false, 0 and "" become ""), stripped and
// lower-cased, without a `torch.` prefix, then mapped through the alias table
// (bfloat16 -> bf16, half -> fp16, long -> i64, ...); unknown names pass
// through lower-cased. A declared dtype is a JSON string here too.
[[nodiscard]] std::string normalize_dtype(const nlohmann::json& dtype);

// Whether it normalises to one of the alias table's dtypes (a typo does not).
[[nodiscard]] bool known_dtype(const nlohmann::json& dtype);

// "bf16, fp16, fp32, ...": those dtypes' own names, for a message.
[[nodiscard]] std::string known_dtypes();

}  // namespace forge
