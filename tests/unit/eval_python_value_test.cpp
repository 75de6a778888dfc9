#define BOOST_TEST_MODULE eval_python_value
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

#include "forge/eval/python_value.hpp"

using nlohmann::json;

// Expected values are what CPython 3.11 prints for the same JSON values.

BOOST_AUTO_TEST_CASE(str_of_scalars_is_pythons) {
    BOOST_TEST(forge::python_str(json()) == "None");
    BOOST_TEST(forge::python_str(json(true)) == "True");
    BOOST_TEST(forge::python_str(json(false)) == "False");
    BOOST_TEST(forge::python_str(json(-7)) == "-7");
    BOOST_TEST(forge::python_str(json(18446744073709551615ULL)) == "18446744073709551615");
    BOOST_TEST(forge::python_str(json("k1_solve")) == "k1_solve");
}

BOOST_AUTO_TEST_CASE(str_of_floats_is_pythons_repr) {
    BOOST_TEST(forge::python_str(json(1e16)) == "1e+16");
    BOOST_TEST(forge::python_str(json(1e15)) == "1000000000000000.0");
    BOOST_TEST(forge::python_str(json(1e-5)) == "1e-05");
    BOOST_TEST(forge::python_str(json(0.0001)) == "0.0001");
    BOOST_TEST(forge::python_str(json(123.0)) == "123.0");
    BOOST_TEST(forge::python_str(json(-0.0)) == "-0.0");
    BOOST_TEST(forge::python_str(json(1.5e300)) == "1.5e+300");
    BOOST_TEST(forge::python_str(json(2.5e-7)) == "2.5e-07");
    BOOST_TEST(forge::python_str(json(1.0 / 3.0)) == "0.3333333333333333");
    BOOST_TEST(forge::python_str(json(123456789.125)) == "123456789.125");
    BOOST_TEST(forge::python_str(json(std::numeric_limits<double>::infinity())) == "inf");
}

BOOST_AUTO_TEST_CASE(str_of_containers_is_their_repr) {
    const json list = json::parse(R"([1, "a", null, true, 2.0, {"k": "it's"}])");
    BOOST_TEST(forge::python_str(list) == R"([1, 'a', None, True, 2.0, {'k': "it's"}])");
    BOOST_TEST(forge::python_str(json::parse(R"({"a": "x\ny"})")) == R"({'a': 'x\ny'})");
    BOOST_TEST(forge::python_repr(json("bf16")) == "'bf16'");
    BOOST_TEST(forge::python_repr(json()) == "None");
}

BOOST_AUTO_TEST_CASE(float_accepts_what_python_float_accepts) {
    BOOST_TEST(*forge::python_float(json("1_000.5")) == 1000.5);
    BOOST_TEST(*forge::python_float(json(" 12 ")) == 12.0);
    BOOST_TEST(*forge::python_float(json("\u00a05\u3000")) == 5.0);  // Unicode spaces stripped
    BOOST_TEST(*forge::python_float(json("-Infinity")) == -std::numeric_limits<double>::infinity());
    BOOST_TEST(std::isnan(*forge::python_float(json("nan"))));
    BOOST_TEST(*forge::python_float(json("1e400")) == std::numeric_limits<double>::infinity());
    BOOST_TEST(*forge::python_float(json("-1e400")) == -std::numeric_limits<double>::infinity());
    BOOST_TEST(*forge::python_float(json("1e-400")) == 0.0);
    BOOST_TEST(*forge::python_float(json("1.")) == 1.0);
    BOOST_TEST(*forge::python_float(json(".5")) == 0.5);
    BOOST_TEST(*forge::python_float(json("+3")) == 3.0);
    BOOST_TEST(*forge::python_float(json(true)) == 1.0);
    BOOST_TEST(*forge::python_float(json(390000)) == 390000.0);
}

BOOST_AUTO_TEST_CASE(float_refuses_what_python_float_refuses) {
    for (const char* text : {"_1", "1__0", "1_.0", ".", "1e", "0x10", "nan(1)", "", " ", "1 2", "infinit", "1,5"}) {
        BOOST_TEST(!forge::python_float(json(text)).has_value(), "float('" << text << "') raises");
    }
    BOOST_TEST(!forge::python_float(json()).has_value());
    BOOST_TEST(!forge::python_float(json::array({1})).has_value());
    BOOST_TEST(!forge::python_float(json::object()).has_value());
}

BOOST_AUTO_TEST_CASE(int_follows_python_int) {
    BOOST_TEST(*forge::python_int(json(" 42 ")) == 42);
    BOOST_TEST(*forge::python_int(json("1_000")) == 1000);
    BOOST_TEST(*forge::python_int(json("-7")) == -7);
    BOOST_TEST(*forge::python_int(json("007")) == 7);
    BOOST_TEST(*forge::python_int(json(4096.9)) == 4096);  // truncated, as int(4096.9)
    BOOST_TEST(*forge::python_int(json(-0.5)) == 0);
    BOOST_TEST(*forge::python_int(json(true)) == 1);
    BOOST_TEST(*forge::python_int(json("-9223372036854775808")) == std::numeric_limits<std::int64_t>::min());
    for (const char* text : {"4.0", "", "1e3", "x", "9223372036854775808"}) {
        BOOST_TEST(!forge::python_int(json(text)).has_value(), "int('" << text << "')");
    }
    BOOST_TEST(!forge::python_int(json()).has_value());
    BOOST_TEST(!forge::python_int(json(std::numeric_limits<double>::infinity())).has_value());
    BOOST_TEST(!forge::python_int(json(1e30)).has_value());  // past 64 bits
}

BOOST_AUTO_TEST_CASE(truth_is_pythons) {
    for (const json& v : {json(), json(false), json(0), json(0.0), json(""), json::array(), json::object()}) {
        BOOST_TEST(!forge::python_truthy(v), v.dump() << " is falsy");
    }
    for (const json& v : {json(true), json(-1), json(" "), json::array({0}), json::object({{"a", 0}}),
                          json(std::numeric_limits<double>::quiet_NaN())}) {
        BOOST_TEST(forge::python_truthy(v), v.dump() << " is truthy");
    }
}

BOOST_AUTO_TEST_CASE(strip_removes_unicode_whitespace_only) {
    BOOST_TEST(forge::python_strip("\t bf16 \n") == "bf16");
    BOOST_TEST(forge::python_strip("\u2003bf16\u00a0") == "bf16");
    BOOST_TEST(forge::python_strip("\u00a1") == "\u00a1");    // shares NBSP's lead byte, not a space
    BOOST_TEST(forge::python_strip("x\u0120") == "x\u0120");  // ends in NBSP's last byte, not a space
    BOOST_TEST(forge::python_strip("   ").empty());
}
