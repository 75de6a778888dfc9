#include "forge/bench/tensor.hpp"

#include <cstring>
#include <string>
#include <utility>

#include "runtime/host_memory.hpp"

namespace forge::bench {

namespace {

std::int64_t element_count(const TensorSpec& spec) {
    std::int64_t count = 1;
    for (std::int64_t extent : spec.shape) {
        if (extent < 0) {
            throw BenchError("tensor '" + spec.name + "' has a negative extent " + std::to_string(extent) +
                             " in its shape");
        }
        count *= extent;
    }
    return count;
}

std::string shape_text(const Shape& shape) {
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i > 0) text += ", ";
        text += std::to_string(shape[i]);
    }
    return text + "]";
}

}  // namespace

std::size_t byte_size(const TensorSpec& spec) {
    return static_cast<std::size_t>(element_count(spec)) * size_of(spec.dtype);
}

Tensor::Tensor(std::string name, Shape shape, DType dtype)
    : spec_{std::move(name), std::move(shape), dtype}, bytes_(nullptr, &release_host_block) {
    bytes_.reset(allocate_host_block(byte_size(spec_)));
}

Tensor::Tensor(TensorSpec spec, Place place, std::byte* bytes, void (*release)(std::byte*))
    : spec_(std::move(spec)), place_(place), bytes_(bytes, release) {
    (void)element_count(spec_);  // refuses a negative extent
}

std::int64_t Tensor::numel() const noexcept {
    std::int64_t count = 1;
    for (std::int64_t extent : spec_.shape) count *= extent;
    return count;
}

std::size_t Tensor::bytes() const noexcept { return static_cast<std::size_t>(numel()) * size_of(spec_.dtype); }

std::int64_t Tensor::dim(int i) const {
    const auto rank = static_cast<int>(spec_.shape.size());
    const int index = i < 0 ? rank + i : i;
    if (index < 0 || index >= rank) {
        throw BenchError("tensor '" + name() + "' has shape " + shape_text(shape()) + ": no dimension " +
                         std::to_string(i));
    }
    return spec_.shape[static_cast<std::size_t>(index)];
}

Tensor Tensor::clone() const {
    check_host();
    Tensor copy(spec_.name, spec_.shape, spec_.dtype);
    std::memcpy(copy.raw(), raw(), bytes());
    return copy;
}

void Tensor::check_element(std::optional<DType> wanted, std::size_t element_size) const {
    if (wanted ? *wanted == dtype() : element_size == size_of(dtype())) return;
    const std::string asked = wanted ? std::string(to_string(*wanted))
                                     : "a " + std::to_string(element_size) + "-byte type";
    throw BenchError("tensor '" + name() + "' holds " + std::string(to_string(dtype())) + " but was read as " +
                     asked + ": use the element type of its dtype");
}

void Tensor::check_host() const {
    if (place_ == Place::host) return;
    throw BenchError("tensor '" + name() +
                     "' is in device memory: use data<T>() in a kernel launch, not span<T>() on the host");
}

Tensor& Tensors::add(std::string name, Shape shape, DType dtype) {
    return add(Tensor(std::move(name), std::move(shape), dtype));
}

Tensor& Tensors::add(Tensor tensor) {
    if (contains(tensor.name())) {
        throw BenchError("tensor '" + tensor.name() + "' is made twice: each tensor needs its own name");
    }
    return tensors_.emplace_back(std::move(tensor));
}

Tensor* Tensors::find(std::string_view name) noexcept {
    for (Tensor& tensor : tensors_) {
        if (tensor.name() == name) return &tensor;
    }
    return nullptr;
}

const Tensor* Tensors::find(std::string_view name) const noexcept {
    for (const Tensor& tensor : tensors_) {
        if (tensor.name() == name) return &tensor;
    }
    return nullptr;
}

Tensor& Tensors::at(std::string_view name) {
    return const_cast<Tensor&>(std::as_const(*this).at(name));
}

const Tensor& Tensors::at(std::string_view name) const {
    if (const Tensor* tensor = find(name)) return *tensor;
    std::string have;
    for (const Tensor& tensor : tensors_) have += (have.empty() ? "" : ", ") + tensor.name();
    throw BenchError("no tensor '" + std::string(name) + "' (have: " + (have.empty() ? "none" : have) + ")");
}

}  // namespace forge::bench
