#include "forge/bench/bench.hpp"

#include <string>

namespace forge::bench {

namespace {

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
    throw BenchError("the " + std::string(to_string(side)) + "'s call asked for " +
                     (list == "inputs" ? "input" : "output") + " '" + std::string(name) +
                     "', which window.toml does not declare in " + section + " (declared: " +
                     (declared.empty() ? "none" : declared) + "); declare it there (with an [[asymmetry]] entry "
                     "when the other side lacks it) or stop using it");
}

}  // namespace

const Tensor& Io::in(std::string_view name) const {
    if (const Tensor* tensor = lookup(inputs_, name)) return *tensor;
    undeclared(side_, "inputs", name, inputs_);
}

Tensor& Io::out(std::string_view name) {
    if (Tensor* tensor = lookup(outputs_, name)) return *tensor;
    undeclared(side_, "outputs", name, outputs_);
}

const Tensor& PrepIo::in(std::string_view name) const {
    if (const Tensor* tensor = inputs_->find(name)) return *tensor;
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
