#include "forge/prep/dtype.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include "forge/eval/python_value.hpp"

namespace forge {

namespace {

// The Python oracle's _DTYPE_ALIASES.
// clang-format off
constexpr std::pair<std::string_view, std::string_view> dtype_aliases[] = {
    {"bfloat16", "bf16"}, {"bf16", "bf16"},
    {"float16", "fp16"}, {"half", "fp16"}, {"fp16", "fp16"},
    {"float32", "fp32"}, {"float", "fp32"}, {"fp32", "fp32"},
    {"float64", "fp64"}, {"double", "fp64"}, {"fp64", "fp64"},
    {"float8_e4m3fn", "e4m3"}, {"e4m3", "e4m3"}, {"float8_e5m2", "e5m2"}, {"e5m2", "e5m2"},
    {"int64", "i64"}, {"long", "i64"}, {"i64", "i64"},
    {"int32", "i32"}, {"int", "i32"}, {"i32", "i32"},
    {"int16", "i16"}, {"i16", "i16"}, {"int8", "i8"}, {"i8", "i8"},
    {"uint8", "u8"}, {"u8", "u8"}, {"bool", "bool"},
};
// clang-format on

}  // namespace

std::string normalize_dtype(const nlohmann::json& dtype) {
    // str(dtype or "").strip().lower(); lower() here is ASCII-only, which is
    // all the alias table needs.
    std::string s(python_strip(python_truthy(dtype) ? python_str(dtype) : std::string()));
    std::transform(s.begin(), s.end(), s.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    constexpr std::string_view torch_prefix = "torch.";
    if (s.starts_with(torch_prefix)) s.erase(0, torch_prefix.size());
    for (const auto& [alias, name] : dtype_aliases) {
        if (alias == s) return std::string(name);
    }
    return s;
}

bool known_dtype(const nlohmann::json& dtype) {
    const std::string name = normalize_dtype(dtype);
    return std::any_of(std::begin(dtype_aliases), std::end(dtype_aliases),
                       [&](const auto& alias) { return alias.second == name; });
}

std::string known_dtypes() {
    std::string names;
    for (const auto& [alias, name] : dtype_aliases) {
        if (alias == name) names += (names.empty() ? "" : ", ") + std::string(name);
    }
    return names;
}

}  // namespace forge
