// A named tensor (shape, dtype, bytes) in host or device memory, and the named
// set a bench builds its inputs into.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "forge/bench/dtype.hpp"

namespace forge::bench {

// Anything the harness refuses in a bench: an undeclared tensor, a wrong view type,
// too few workloads. The message names the tensor, the side and the fix.
struct BenchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

using Shape = std::vector<std::int64_t>;

// What a tensor is, without its bytes: a declared output, a prep tensor's report.
struct TensorSpec {
    std::string name;
    Shape shape;
    DType dtype = DType::fp32;
};

// Bytes a tensor of this spec holds; throws BenchError on a negative extent.
[[nodiscard]] std::size_t byte_size(const TensorSpec& spec);

enum class Place { host, device };

class Tensor {
public:
    // Zero-filled host tensor.
    Tensor(std::string name, Shape shape, DType dtype);
    // Takes ownership of `bytes` (allocated for `place`; released by `release`).
    Tensor(TensorSpec spec, Place place, std::byte* bytes, void (*release)(std::byte*));

    Tensor(Tensor&&) noexcept = default;
    Tensor& operator=(Tensor&&) noexcept = default;
    Tensor(const Tensor&) = delete;  // copies are explicit: clone()
    Tensor& operator=(const Tensor&) = delete;
    ~Tensor() = default;

    [[nodiscard]] const std::string& name() const noexcept { return spec_.name; }
    [[nodiscard]] const Shape& shape() const noexcept { return spec_.shape; }
    [[nodiscard]] DType dtype() const noexcept { return spec_.dtype; }
    [[nodiscard]] const TensorSpec& spec() const noexcept { return spec_; }
    [[nodiscard]] Place place() const noexcept { return place_; }
    [[nodiscard]] std::int64_t numel() const noexcept;
    [[nodiscard]] std::size_t bytes() const noexcept;
    // Size of dimension `i` (negative counts from the end); throws naming the tensor.
    [[nodiscard]] std::int64_t dim(int i) const;

    // Typed pointer to the elements (device memory for a CUDA bench's calls).
    // T must be the tensor's dtype (or, for types the harness does not know, the same size).
    template <class T>
    [[nodiscard]] T* data() {
        check_element<T>();
        return reinterpret_cast<T*>(bytes_.get());
    }
    template <class T>
    [[nodiscard]] const T* data() const {
        check_element<T>();
        return reinterpret_cast<const T*>(bytes_.get());
    }
    // Typed view of a host tensor; throws for a device tensor.
    template <class T>
    [[nodiscard]] std::span<T> span() {
        check_host();
        return {data<T>(), static_cast<std::size_t>(numel())};
    }
    template <class T>
    [[nodiscard]] std::span<const T> span() const {
        check_host();
        return {data<T>(), static_cast<std::size_t>(numel())};
    }

    [[nodiscard]] std::byte* raw() noexcept { return bytes_.get(); }
    [[nodiscard]] const std::byte* raw() const noexcept { return bytes_.get(); }

    // A host copy (host tensors only; the backends copy device tensors).
    [[nodiscard]] Tensor clone() const;

private:
    template <class T>
    void check_element() const {
        check_element(dtype_of<std::remove_cv_t<T>>, sizeof(T));
    }
    void check_element(std::optional<DType> wanted, std::size_t element_size) const;
    void check_host() const;

    TensorSpec spec_;
    Place place_ = Place::host;
    std::unique_ptr<std::byte, void (*)(std::byte*)> bytes_;
};

// Tensors by name, in the order they were added. References stay valid as tensors are added.
class Tensors {
public:
    // Adds a zero-filled host tensor; throws when the name is taken.
    Tensor& add(std::string name, Shape shape, DType dtype);
    Tensor& add(Tensor tensor);

    [[nodiscard]] Tensor& at(std::string_view name);  // throws naming the tensor
    [[nodiscard]] const Tensor& at(std::string_view name) const;
    [[nodiscard]] Tensor* find(std::string_view name) noexcept;
    [[nodiscard]] const Tensor* find(std::string_view name) const noexcept;
    [[nodiscard]] bool contains(std::string_view name) const noexcept { return find(name) != nullptr; }

    [[nodiscard]] std::size_t size() const noexcept { return tensors_.size(); }
    [[nodiscard]] auto begin() noexcept { return tensors_.begin(); }
    [[nodiscard]] auto end() noexcept { return tensors_.end(); }
    [[nodiscard]] auto begin() const noexcept { return tensors_.begin(); }
    [[nodiscard]] auto end() const noexcept { return tensors_.end(); }

private:
    std::deque<Tensor> tensors_;
};

}  // namespace forge::bench
