#include "runtime/cupti/cupti_launch_log.hpp"

#include <cupti.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cupti/cupti_activity.hpp"
#include "runtime/cupti/cupti_launch_ids.hpp"

namespace forge::bench {

namespace {

constexpr std::size_t max_logged_kernels = 64;
// A longer (mangled) name is not kept: its prefix could match another kernel's,
// so the log is marked partial instead, and only the names it holds are compared.
constexpr std::size_t max_name_bytes = 1024;

// FNV-1a; 0 marks an empty slot.
std::uint64_t name_hash(std::string_view name) noexcept {
    std::uint64_t hash = 0xCBF29CE484222325ULL;
    for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
    return hash == 0 ? 1 : hash;
}

// Lock-free: launches may come from any thread of the call. CUPTI's name is valid
// only inside the callback, so each new name is copied, once. Static: a launch from
// a thread the call left behind can land after its log is gone, never in freed memory.
struct LaunchSlots {
    struct Slot {
        std::atomic<std::uint64_t> hash{0};
        std::atomic<bool> ready{false};
        std::array<char, max_name_bytes> name{};
    };
    std::array<Slot, max_logged_kernels> slots;
    std::atomic<bool> partial{false};

    void note(const char* symbol) noexcept {
        if (symbol == nullptr) {
            partial.store(true, std::memory_order_relaxed);
            return;
        }
        const std::string_view name(symbol, strnlen(symbol, max_name_bytes));
        if (name.size() == max_name_bytes) {
            partial.store(true, std::memory_order_relaxed);
            return;
        }
        const std::uint64_t hash = name_hash(name);
        for (Slot& slot : slots) {
            std::uint64_t held = slot.hash.load(std::memory_order_acquire);
            if (held == hash) return;
            if (held == 0 && slot.hash.compare_exchange_strong(held, hash, std::memory_order_acq_rel)) {
                std::memcpy(slot.name.data(), name.data(), name.size());
                slot.name[name.size()] = '\0';
                slot.ready.store(true, std::memory_order_release);
                return;
            }
            if (held == hash) return;  // another thread claimed it for the same name
        }
        partial.store(true, std::memory_order_relaxed);
    }

    void clear() noexcept {
        for (Slot& slot : slots) {
            slot.ready.store(false, std::memory_order_relaxed);
            slot.hash.store(0, std::memory_order_relaxed);
        }
        partial.store(false, std::memory_order_relaxed);
    }
};

LaunchSlots launch_slots;
std::atomic<bool> logging{false};

void CUPTIAPI on_launch(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
    if (!logging.load(std::memory_order_acquire)) return;
    const auto* call = static_cast<const CUpti_CallbackData*>(data);
    if (call->callbackSite != CUPTI_API_ENTER) return;
    // A graph's kernels are not named at its launch: the log holds only part of the set.
    if (is_graph_launch(domain, id)) {
        launch_slots.partial.store(true, std::memory_order_relaxed);
        return;
    }
    launch_slots.note(call->symbolName);
}

class CuptiLaunchLog final : public LaunchLog {
public:
    CuptiLaunchLog() {
        if (logging.load(std::memory_order_acquire)) throw std::logic_error("forge::bench: a launch log is already active");
        launch_slots.clear();
        logging.store(true, std::memory_order_release);
    }
    ~CuptiLaunchLog() override { logging.store(false, std::memory_order_release); }
    CuptiLaunchLog(const CuptiLaunchLog&) = delete;
    CuptiLaunchLog& operator=(const CuptiLaunchLog&) = delete;

    [[nodiscard]] KernelNames names() const override {
        KernelNames result;
        for (const LaunchSlots::Slot& slot : launch_slots.slots) {
            if (slot.ready.load(std::memory_order_acquire)) result.names.insert(demangled_kernel_name(slot.name.data()));
        }
        result.complete = !launch_slots.partial.load(std::memory_order_relaxed);
        return result;
    }
};

}  // namespace

CuptiLaunchCallbacks::CuptiLaunchCallbacks() {
    CUpti_SubscriberHandle subscriber = nullptr;
    if (const CUptiResult result = cuptiSubscribe(&subscriber, on_launch, nullptr); result != CUPTI_SUCCESS) {
        unavailable_because_ = "CUPTI's launch callbacks are taken (" + cupti_result_text(result) +
                               "; another profiler, such as ncu or nsys, is attached?)";
        return;
    }
    for (const auto& [domain, ids] : {std::pair{CUPTI_CB_DOMAIN_RUNTIME_API, std::span<const CUpti_CallbackId>(runtime_launch_callbacks)},
                                      std::pair{CUPTI_CB_DOMAIN_DRIVER_API, std::span<const CUpti_CallbackId>(driver_launch_callbacks)}}) {
        for (const CUpti_CallbackId id : ids) {
            if (const CUptiResult result = cuptiEnableCallback(1, subscriber, domain, id); result != CUPTI_SUCCESS) {
                report_failure(cuptiUnsubscribe(subscriber), "cuptiUnsubscribe");
                unavailable_because_ = "CUPTI refused a launch callback (" + cupti_result_text(result) + ")";
                return;
            }
        }
    }
    subscriber_ = subscriber;
}

CuptiLaunchCallbacks::~CuptiLaunchCallbacks() {
    if (subscriber_ != nullptr) {
        report_failure(cuptiUnsubscribe(static_cast<CUpti_SubscriberHandle>(subscriber_)), "cuptiUnsubscribe");
    }
}

std::unique_ptr<LaunchLog> CuptiLaunchCallbacks::log() {
    if (subscriber_ == nullptr) return nullptr;
    return std::make_unique<CuptiLaunchLog>();
}

}  // namespace forge::bench
