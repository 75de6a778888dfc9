#include "forge/bench/bench.hpp"

#include <algorithm>

#if __has_include(<cxxabi.h>)
#include <cxxabi.h>
#endif

#include <cstdlib>
#include <memory>
#include <string>

#include "side_call_error.hpp"

namespace forge::bench {

namespace {

// A type's name as its source spells it where the ABI can say (typeid's own is mangled).
std::string type_name(const std::type_info& type) {
#if __has_include(<cxxabi.h>)
    int status = 0;
    const auto release = [](char* text) { std::free(text); };
    const std::unique_ptr<char, decltype(release)> readable(abi::__cxa_demangle(type.name(), nullptr, nullptr, &status),
                                                            release);
    if (status == 0 && readable) return readable.get();
#endif
    return type.name();
}

using Bound = std::vector<std::pair<std::string, Tensor*>>;

Tensor* lookup(const Bound& bound, std::string_view name) {
    for (const auto& [declared, tensor] : bound) {
        if (declared == name) return tensor;
    }
    return nullptr;
}

[[noreturn]] void undeclared(Side side, std::string_view list, std::string_view name, const Bound& bound) {
    std::string declared;
    for (const auto& entry : bound) declared += (declared.empty() ? "" : ", ") + entry.first;
    const std::string section = "[" + std::string(to_string(side)) + "]." + std::string(list);
    throw SideCallError("the " + std::string(to_string(side)) + "'s call asked for " +
                        (list == "inputs" ? "input" : "output") + " '" + std::string(name) +
                        "', which window.toml does not declare in " + section + " (declared: " +
                        (declared.empty() ? "none" : declared) + "); declare it there (with an [[asymmetry]] entry "
                        "when the other side lacks it) or stop using it");
}

}  // namespace

const Tensor& Io::in(std::string_view name) const {
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
        if (inputs_[i].first != name) continue;
        inputs_read_[i] = true;
        return *inputs_[i].second;
    }
    undeclared(side_, "inputs", name, inputs_);
}

Tensor& Io::out(std::string_view name) {
    if (Tensor* tensor = lookup(outputs_, name)) return *tensor;
    undeclared(side_, "outputs", name, outputs_);
}

void* Io::state_of(const std::type_info& asked) const {
    const std::string side = std::string(to_string(side_));
    if (state_type_ == nullptr) {
        throw SideCallError("the " + side + "'s call asked for its state (io.state<" + type_name(asked) +
                            ">()), but the bench gives the " + side + " no setup: make the state in "
                            "Bench::setup(fb::Side::" + side + ", [](const fb::Workload&, fb::Stream) { ... })");
    }
    if (*state_type_ == typeid(void)) {
        throw SideCallError("the " + side + "'s call asked for its state (io.state<" + type_name(asked) +
                            ">()), but the " + side + "'s setup returns nothing: return the state from the setup");
    }
    if (*state_type_ != asked) {
        throw SideCallError("the " + side + "'s call asked for its state as '" + type_name(asked) + "', but the " +
                            side + "'s setup made a '" + type_name(*state_type_) + "': ask for io.state<" +
                            type_name(*state_type_) + ">()");
    }
    return state_.get();
}

const Tensor& PrepIo::in(std::string_view name) const {
    if (const Tensor* tensor = inputs_->find(name)) {
        if (std::find(inputs_read_.begin(), inputs_read_.end(), name) == inputs_read_.end()) {
            inputs_read_.emplace_back(name);
        }
        return *tensor;
    }
    std::string made;
    for (const Tensor& tensor : *inputs_) made += (made.empty() ? "" : ", ") + tensor.name();
    throw BenchError("the prep step asked for input '" + std::string(name) + "', which the bench's inputs() did not "
                     "make for workload '" + workload_->name + "' (made: " + (made.empty() ? "none" : made) + ")");
}

Tensor& PrepIo::out(std::string name, Shape shape, DType dtype) {
    if (produced_.contains(name)) {
        throw BenchError("the prep step produced '" + name + "' twice: each prep output needs its own name");
    }
    return produced_.add(allocate_(TensorSpec{std::move(name), std::move(shape), dtype}));
}

}  // namespace forge::bench
