#define BOOST_TEST_MODULE cupti_launch_ids
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "runtime/cupti/cupti_launch_ids.hpp"

// The launch log's callback lists against the CUPTI headers of the toolkit it is
// built with: every API there that launches kernels is subscribed (so a new entry
// point, as __cudaLaunchKernel was in CUDA 13, fails here first), and nothing
// else. Needs the headers, not a GPU.
namespace fb = forge::bench;

namespace {

// Every "CUPTI_<DOMAIN>_TRACE_CBID_<api> = <id>" of a callback-id header.
std::map<std::string, unsigned> callback_ids(const std::string& header, const std::string& domain) {
    std::ifstream in(header);
    BOOST_TEST_REQUIRE(in.good(), "cannot read " << header);
    std::stringstream text;
    text << in.rdbuf();
    const std::string content = text.str();
    const std::regex entry("CUPTI_" + domain + "_TRACE_CBID_(\\w+)\\s*=\\s*(\\d+)");
    std::map<std::string, unsigned> ids;
    for (auto it = std::sregex_iterator(content.begin(), content.end(), entry); it != std::sregex_iterator(); ++it) {
        ids[(*it)[1]] = static_cast<unsigned>(std::stoul((*it)[2]));
    }
    return ids;
}

// The header's kernel launches: every cudaLaunchKernel* / __cudaLaunchKernel* /
// cudaLaunchCooperativeKernel* / cudaGraphLaunch* (cu* in the driver), except the
// multi-device cooperative launch, which CUDA 13 no longer has.
std::set<unsigned> kernel_launches(const std::map<std::string, unsigned>& ids, const std::regex& launch) {
    std::set<unsigned> wanted;
    for (const auto& [name, id] : ids) {
        if (std::regex_search(name, launch) && name.find("MultiDevice") == std::string::npos) wanted.insert(id);
    }
    return wanted;
}

template <std::size_t N>
std::set<unsigned> subscribed(const CUpti_CallbackId (&ids)[N]) {
    return {std::begin(ids), std::end(ids)};
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_runtime_kernel_launch_of_the_header_is_subscribed) {
    const auto ids = callback_ids(CUPTI_INCLUDE_DIR "/cupti_runtime_cbid.h", "RUNTIME");
    const std::set<unsigned> wanted =
        kernel_launches(ids, std::regex("^_*cuda(LaunchKernel|LaunchCooperativeKernel|GraphLaunch)(ExC)?_"));
    BOOST_TEST(wanted == subscribed(fb::runtime_launch_callbacks), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(cuda_13s_launch_entry_point_is_subscribed) {
    const auto ids = callback_ids(CUPTI_INCLUDE_DIR "/cupti_runtime_cbid.h", "RUNTIME");
    const std::set<unsigned> list = subscribed(fb::runtime_launch_callbacks);
    for (const char* name : {"__cudaLaunchKernel_v13000", "__cudaLaunchKernel_ptsz_v13000"}) {
        if (!ids.contains(name)) continue;  // a toolkit before CUDA 13
        BOOST_TEST(list.contains(ids.at(name)), name << " (" << ids.at(name) << ") is not subscribed");
    }
}

BOOST_AUTO_TEST_CASE(every_driver_kernel_launch_of_the_header_is_subscribed) {
    const auto ids = callback_ids(CUPTI_INCLUDE_DIR "/cupti_driver_cbid.h", "DRIVER");
    const std::set<unsigned> wanted =
        kernel_launches(ids, std::regex("^cu(LaunchKernel|LaunchCooperativeKernel|GraphLaunch)(Ex)?(_ptsz)?$"));
    BOOST_TEST(wanted == subscribed(fb::driver_launch_callbacks), boost::test_tools::per_element());
}
