#include "kernel_pattern.hpp"

#include <string>

#include "forge/credit/credit.hpp"

namespace forge::credit_detail {

namespace {

// Kernel names can run to thousands of characters (templated C++); a message
// shows the start.
std::string shortened(std::string_view kernel) {
    constexpr std::size_t shown = 120;
    return kernel.size() <= shown ? std::string(kernel) : std::string(kernel.substr(0, shown)) + "...";
}

std::string entry_label(const Asymmetry& entry) {
    return "[[asymmetry]] " + entry.subject() + " " + std::string(regex_key(entry.payer())) + " '" + entry.regex() +
           "'";
}

}  // namespace

KernelPattern::KernelPattern(const Asymmetry& entry) : entry_(&entry) {
    try {
        compiled_ = detail::compile_python_regex(entry.regex());
    } catch (const detail::PythonRegexError& error) {
        throw CreditError(entry_label(entry) + " is not a usable regex (" + error.what() + "); fix it in window.toml",
                          entry.subject(), {});
    }
}

bool KernelPattern::found_in(std::string_view kernel) const {
    try {
        return detail::python_regex_search(compiled_, kernel);
    } catch (const detail::PythonRegexError& error) {
        throw CreditError(entry_label(*entry_) + " could not be matched against kernel '" + shortened(kernel) + "' (" +
                              error.what() +
                              "); make the pattern unambiguous (no nested repetition such as (a+)+) in window.toml",
                          entry_->subject(), std::string(kernel));
    }
}

}  // namespace forge::credit_detail
