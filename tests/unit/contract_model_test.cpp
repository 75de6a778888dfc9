#define BOOST_TEST_MODULE contract_model
#include <boost/test/unit_test.hpp>

#include "forge/contract/contract.hpp"

using forge::Asymmetry;
using forge::Kind;
using forge::Side;

BOOST_AUTO_TEST_CASE(payer_follows_the_kind) {
    BOOST_TEST((forge::payer(Kind::ref_input) == Side::student));
    BOOST_TEST((forge::payer(Kind::student_output) == Side::student));
    BOOST_TEST((forge::payer(Kind::student_input) == Side::reference));
    BOOST_TEST((forge::payer(Kind::ref_output) == Side::reference));
}

BOOST_AUTO_TEST_CASE(derived_names_split_on_commas_and_space) {
    Asymmetry a;
    a.derived_from = " k,beta\t,, g  ";
    BOOST_TEST((a.derived_names() == std::vector<std::string>{"k", "beta", "g"}));
}

BOOST_AUTO_TEST_CASE(a_warm_cache_is_not_prep_checked) {
    Asymmetry a;
    a.cls = "symmetrize";
    a.produced_by = "prep";
    BOOST_TEST(a.prep_checked());
    a.produced_by = "cache";
    BOOST_TEST(!a.prep_checked());
}

BOOST_AUTO_TEST_CASE(priced_needs_the_payers_regex) {
    Asymmetry a;
    a.kind = Kind::ref_input;
    a.cls = "price";
    a.ref_kernel_regex = "k1";  // the wrong side's key prices nothing
    BOOST_TEST(a.unpriced());
    a.student_kernel_regex = "k1";
    BOOST_TEST(a.priced());
    BOOST_TEST(a.subject() == "ref_input=");
}

BOOST_AUTO_TEST_CASE(location_falls_back_to_the_parent_key) {
    forge::WindowContract c;
    c.locations["asymmetry[2]"] = {7, 1};
    BOOST_TEST(c.location_of("asymmetry[2].class")->line == 7);
    BOOST_TEST(!c.location_of("reference.inputs").has_value());
}

BOOST_AUTO_TEST_CASE(declared_needs_all_four_lists) {
    forge::WindowContract c;
    c.reference_inputs = {"x"};
    c.student_inputs = {"x"};
    c.reference_outputs = {"y"};
    BOOST_TEST(!c.declared());
    c.student_outputs = {"y"};
    BOOST_TEST(c.declared());
}
