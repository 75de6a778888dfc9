// Deterministic random inputs: the same seed gives the same bytes on every
// machine and standard library (no std::*_distribution, whose output varies).
#pragma once

#include <cstdint>

#include "forge/bench/tensor.hpp"

namespace forge::bench {

class Rng {
public:
    explicit Rng(std::uint64_t seed) noexcept;

    [[nodiscard]] std::uint64_t next() noexcept;      // xoshiro256**
    [[nodiscard]] double uniform() noexcept;          // [0, 1)
    [[nodiscard]] double normal() noexcept;           // mean 0, standard deviation 1

    // Fill a host tensor of any floating dtype (stored rounded to it).
    void uniform(Tensor& tensor, double low = -1.0, double high = 1.0);
    void normal(Tensor& tensor, double mean = 0.0, double stddev = 1.0);
    // Fill a host tensor of any integer dtype with values in [low, high].
    void integers(Tensor& tensor, std::int64_t low, std::int64_t high);

private:
    std::uint64_t state_[4];
};

}  // namespace forge::bench
