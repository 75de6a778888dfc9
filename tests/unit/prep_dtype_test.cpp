#define BOOST_TEST_MODULE prep_dtype
#include <boost/test/unit_test.hpp>

#include <string>

#include "forge/prep/dtype.hpp"

using nlohmann::json;

// Expected names are the Python oracle's normalize_dtype (run_oracle.py, op "dtype").

BOOST_AUTO_TEST_CASE(spellings_of_one_dtype_are_one_name) {
    const std::pair<const char*, const char*> cases[] = {
        {"torch.bfloat16", "bf16"},
        {"BF16", "bf16"},
        {" Torch.Float16 ", "fp16"},
        {"half", "fp16"},
        {"float", "fp32"},
        {"double", "fp64"},
        {"float8_e4m3fn", "e4m3"},
        {"float8_e5m2", "e5m2"},
        {"long", "i64"},
        {"int", "i32"},
        {"int16", "i16"},
        {"int8", "i8"},
        {"uint8", "u8"},
        {"bool", "bool"},
        {"torch.BFloat16", "bf16"},
        {"\u00a0bf16\u2003", "bf16"},
    };
    for (const auto& [spelling, name] : cases) BOOST_TEST(forge::normalize_dtype(json(spelling)) == name, spelling);
}

BOOST_AUTO_TEST_CASE(unknown_names_pass_through_lower_cased) {
    BOOST_TEST(forge::normalize_dtype(json("Complex64")) == "complex64");
    BOOST_TEST(forge::normalize_dtype(json("torch.torch.bf16")) == "torch.bf16");  // one prefix only
    BOOST_TEST(forge::normalize_dtype(json("torch.")).empty());
}

BOOST_AUTO_TEST_CASE(any_json_value_is_read_as_python_str_of_it) {
    for (const json& falsy : {json(), json(0), json(false), json(""), json::array()}) {
        BOOST_TEST(forge::normalize_dtype(falsy).empty(), falsy.dump());
    }
    BOOST_TEST(forge::normalize_dtype(json(1)) == "1");
    BOOST_TEST(forge::normalize_dtype(json(true)) == "true");
    BOOST_TEST(forge::normalize_dtype(json(1.5)) == "1.5");
    BOOST_TEST(forge::normalize_dtype(json(1e16)) == "1e+16");
    BOOST_TEST(forge::normalize_dtype(json::array({"bf16"})) == "['bf16']");
    BOOST_TEST(forge::normalize_dtype(json::object({{"a", 1}})) == "{'a': 1}");
}
