// The harness's way into Io and PrepIo: building them and binding tensors, which
// a bench's own code cannot do.
#pragma once

#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "forge/bench/bench.hpp"

namespace forge::bench::detail {

struct Access {
    [[nodiscard]] static Io make_io(Side side, const Workload& workload, Stream stream) {
        return Io(side, workload, stream);
    }
    static void bind_input(Io& io, const std::string& name, Tensor& tensor) {
        io.inputs_.emplace_back(name, &tensor);
        io.inputs_read_.push_back(false);
    }
    static void bind_output(Io& io, const std::string& name, Tensor& tensor) { io.outputs_.emplace_back(name, &tensor); }
    static void unbind_all(Io& io) noexcept {
        io.inputs_.clear();
        io.inputs_read_.clear();
        io.outputs_.clear();
    }
    // The declared inputs a call did not ask for (io.in) since the last forget_reads.
    static void forget_reads(Io& io) noexcept { io.inputs_read_.assign(io.inputs_read_.size(), false); }
    [[nodiscard]] static std::vector<std::string> unread_inputs(const Io& io) {
        std::vector<std::string> unread;
        for (std::size_t i = 0; i < io.inputs_.size(); ++i) {
            if (!io.inputs_read_[i]) unread.push_back(io.inputs_[i].first);
        }
        return unread;
    }
    // What the side's setup made (Bench::setup), for io.state(); dropped to tear it down.
    static void set_state(Io& io, std::shared_ptr<void> state, const std::type_info& type) noexcept {
        io.state_ = std::move(state);
        io.state_type_ = &type;
    }
    static void drop_state(Io& io) noexcept {
        io.state_.reset();
        io.state_type_ = nullptr;
    }
    [[nodiscard]] static const auto& inputs(const Io& io) noexcept { return io.inputs_; }
    [[nodiscard]] static const auto& outputs(const Io& io) noexcept { return io.outputs_; }

    [[nodiscard]] static PrepIo make_prep_io(const Workload& workload, const Tensors& inputs,
                                             PrepIo::Allocate allocate, Stream stream) {
        return PrepIo(workload, inputs, std::move(allocate), stream);
    }
    [[nodiscard]] static Tensors& produced(PrepIo& io) noexcept { return io.produced_; }
    [[nodiscard]] static const std::vector<std::string>& inputs_read(const PrepIo& io) noexcept {
        return io.inputs_read_;
    }
};

}  // namespace forge::bench::detail
