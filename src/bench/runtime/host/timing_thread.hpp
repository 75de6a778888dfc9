// The timing thread pinned to one CPU, and the threads a side makes kept off
// that pin.
//
// The thread that makes the calls is pinned to the CPU it starts on, so its
// samples do not migrate between cores (and caches) mid-run. Linux gives a new
// thread its creator's CPUs, so every thread a side made from the timing thread
// (an OpenMP team, a std::thread per call) would share that one CPU and a
// multithreaded side would run serialized: a silent tax on that side alone.
// So threads made with default attributes (std::thread) start on the process's
// CPUs, and threads made with attributes of their own (libgomp's team) are
// given them back before each call from a flushed cache.
#pragma once

#include <pthread.h>
#include <sched.h>
#include <sys/types.h>

#include <cstddef>
#include <vector>

namespace forge::bench {

class TimingThreadPin {
public:
    TimingThreadPin();   // pins the calling thread
    ~TimingThreadPin();  // gives it back its CPUs, and threads their default attributes
    TimingThreadPin(const TimingThreadPin&) = delete;
    TimingThreadPin& operator=(const TimingThreadPin&) = delete;

    // The CPU the timing thread is pinned to; -1 when it could not be pinned.
    [[nodiscard]] int cpu() const { return cpu_; }
    // The process's CPUs other than that one, lowest first, at most `most`;
    // none when the timing thread could not be pinned.
    [[nodiscard]] std::vector<int> other_cpus(std::size_t most) const;

    // Gives the process's CPUs to every other thread of the process whose CPUs
    // are exactly the timing thread's one: threads a side made from it. A side
    // that pinned a thread of its own to that very CPU cannot be told apart.
    // Returns how many it released now.
    std::size_t release_side_threads();
    // How many side threads were released so far (eval.json device facts).
    [[nodiscard]] std::size_t released() const { return released_; }

private:
    cpu_set_t process_cpus_{};
    cpu_set_t pinned_{};
    int cpu_ = -1;
    pid_t timing_thread_ = 0;
    pthread_attr_t earlier_default_attributes_{};  // restored by the destructor
    bool default_attributes_changed_ = false;
    std::size_t released_ = 0;
};

}  // namespace forge::bench
