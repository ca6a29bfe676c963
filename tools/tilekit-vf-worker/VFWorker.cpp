//===- VFWorker.cpp - The persistent vector-function worker ---------------===//
//
// A long-lived process that runs vf-bundle images the way the device's
// worker runs them: it receives raw code bytes (an image's `.text`), a UB
// size and the kernel's arguments, maps the code executable, calls
// kernel_entry at its first byte and sends the tensors back. A kernel that
// faults is reported (with its signal) and unmapped; the worker carries on
// with the next one. docs/vector-functions.md gives the protocol; frames
// are little-endian:
//
//   request:  "TKVF" u32 version=1
//             u64 code bytes, the code
//             u64 UB bytes
//             u32 tensors; each: u32 rank, i64 dims[rank], the f32 data
//             u32 ints; i64 each    u32 floats; f32 each
//   response: "TKVR" u32 status (0 ran, 1 faulted, 2 bad request)
//             u32 signal, u64 runs so far, u64 nanoseconds in kernel_entry
//             u64 message bytes, the message
//             when it ran: u32 tensors; each: u64 bytes, the data
//
// The worker reads requests until its input ends.
//
//===----------------------------------------------------------------------===//

#include "../../runtime/vf/tilekit_vf.h"

#include <chrono>
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr uint32_t kVersion = 1;
constexpr uint64_t kMaxBytes = uint64_t(1) << 34; // 16 GiB: surely corrupt

bool readExact(void *into, size_t bytes) {
  return bytes == 0 || std::fread(into, 1, bytes, stdin) == bytes;
}
template <typename T> bool read(T &value) {
  return readExact(&value, sizeof value);
}
void writeBytes(const void *from, size_t bytes) {
  std::fwrite(from, 1, bytes, stdout);
}
template <typename T> void write(const T &value) {
  writeBytes(&value, sizeof value);
}

void respond(uint32_t status, uint32_t signal, uint64_t runs, uint64_t nanos,
             const std::string &message) {
  writeBytes("TKVR", 4);
  write(status);
  write(signal);
  write(runs);
  write(nanos);
  write(uint64_t(message.size()));
  writeBytes(message.data(), message.size());
}

sigjmp_buf faultReturn;
volatile sig_atomic_t inKernel = 0;

void onFault(int signal) {
  if (inKernel)
    siglongjmp(faultReturn, signal);
  // A fault in the worker itself: die with it.
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void installFaultHandlers() {
  // The handler runs on its own stack: a kernel may have smashed its own.
  static std::vector<char> stack(1 << 16);
  stack_t alternate{};
  alternate.ss_sp = stack.data();
  alternate.ss_size = stack.size();
  sigaltstack(&alternate, nullptr);
  struct sigaction action {};
  action.sa_handler = onFault;
  action.sa_flags = SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP})
    sigaction(signal, &action, nullptr);
}

// The code is foreign: it carries none of the type signatures that
// -fsanitize=function reads in front of a callee (before the mapping).
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
void callEntry(void *code, const tk_vf_args *args) {
  reinterpret_cast<void (*)(const tk_vf_args *)>(code)(args);
}

struct Request {
  std::string code;
  uint64_t ubBytes = 0;
  std::vector<tk_vf_tensor> tensors;
  std::vector<std::vector<float>> data;
  std::vector<int64_t> ints;
  std::vector<float> floats;
};

/// Reads one request; false at the end of the input, `error` set when it
/// is malformed (then the stream cannot be trusted any more).
bool readRequest(Request &request, std::string &error) {
  char magic[4];
  if (!readExact(magic, 4))
    return false;
  uint32_t version = 0;
  if (std::memcmp(magic, "TKVF", 4) != 0 || !read(version) ||
      version != kVersion) {
    error = "not a TKVF version 1 request";
    return true;
  }
  uint64_t codeBytes = 0;
  if (!read(codeBytes) || codeBytes == 0 || codeBytes > kMaxBytes) {
    error = "bad code size";
    return true;
  }
  request.code.resize(codeBytes);
  uint32_t tensors = 0;
  if (!readExact(request.code.data(), codeBytes) || !read(request.ubBytes) ||
      request.ubBytes > kMaxBytes || !read(tensors)) {
    error = "truncated request";
    return true;
  }
  request.tensors.resize(tensors);
  request.data.resize(tensors);
  for (uint32_t t = 0; t < tensors; ++t) {
    tk_vf_tensor &tensor = request.tensors[t];
    uint32_t rank = 0;
    if (!read(rank) || rank == 0 || rank > 4) {
      error = "tensor rank must be 1 to 4";
      return true;
    }
    tensor.rank = rank;
    uint64_t elements = 1;
    for (uint32_t d = 0; d < rank; ++d) {
      if (!read(tensor.dims[d]) || tensor.dims[d] < 0) {
        error = "bad tensor dims";
        return true;
      }
      elements *= uint64_t(tensor.dims[d]);
    }
    if (elements * 4 > kMaxBytes) {
      error = "tensor too large";
      return true;
    }
    int64_t stride = 1;
    for (int d = int(rank) - 1; d >= 0; --d) {
      tensor.strides[d] = stride;
      stride *= tensor.dims[d];
    }
    request.data[t].resize(elements);
    if (!readExact(request.data[t].data(), elements * 4)) {
      error = "truncated tensor data";
      return true;
    }
    tensor.data = request.data[t].data();
  }
  uint32_t ints = 0, floats = 0;
  if (!read(ints)) {
    error = "truncated request";
    return true;
  }
  request.ints.resize(ints);
  if (!readExact(request.ints.data(), ints * 8) || !read(floats)) {
    error = "truncated request";
    return true;
  }
  request.floats.resize(floats);
  if (!readExact(request.floats.data(), floats * 4)) {
    error = "truncated request";
    return true;
  }
  return true;
}

} // namespace

constexpr char kUsage[] =
    "usage: tilekit-vf-worker < requests > responses\n\n"
    "Runs the .text of vf-bundle images (tilekit compile --emit=vf-bundle):\n"
    "reads TKVF requests on stdin until it ends and answers each with a "
    "TKVR\nresponse on stdout; a kernel that faults is reported and the "
    "worker goes on.\nThe protocol is in docs/vector-functions.md; "
    "examples/vf/vf_worker.py is a client.\n";

int main(int argc, char **argv) {
  if (argc > 1) {
    bool help = std::strcmp(argv[1], "--help") == 0 ||
                std::strcmp(argv[1], "-h") == 0;
    std::fputs(kUsage, help ? stdout : stderr);
    return help ? 0 : 2;
  }
  if (isatty(STDIN_FILENO))
    std::fputs("tilekit-vf-worker: reading binary requests from the terminal; "
               "see --help\n",
               stderr);
  installFaultHandlers();
  uint64_t runs = 0;
  long page = sysconf(_SC_PAGESIZE);
  for (;;) {
    Request request;
    std::string error;
    if (!readRequest(request, error))
      return 0;
    if (!error.empty()) {
      respond(2, 0, runs, 0, error);
      std::fflush(stdout);
      return 1;
    }
    // The code: mapped writable, filled, then made executable only.
    size_t mapped = (request.code.size() + page - 1) / page * page;
    void *code = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED ||
        (std::memcpy(code, request.code.data(), request.code.size()),
         mprotect(code, mapped, PROT_READ | PROT_EXEC))) {
      respond(2, 0, runs, 0, "cannot map the code executable");
      std::fflush(stdout);
      continue;
    }
    std::vector<uint8_t> ub(request.ubBytes);
    tk_vf_args args{ub.data(), request.tensors.data(), request.ints.data(),
                    request.floats.data()};
    ++runs;
    auto start = std::chrono::steady_clock::now();
    int signal = sigsetjmp(faultReturn, 1);
    if (signal == 0) {
      inKernel = 1;
      callEntry(code, &args);
      inKernel = 0;
    }
    inKernel = 0;
    uint64_t nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    munmap(code, mapped);
    if (signal != 0) {
      respond(1, signal, runs, nanos,
              std::string("kernel_entry faulted: ") + strsignal(signal));
      std::fflush(stdout);
      continue;
    }
    respond(0, 0, runs, nanos, "");
    write(uint32_t(request.tensors.size()));
    for (const std::vector<float> &data : request.data) {
      write(uint64_t(data.size() * 4));
      writeBytes(data.data(), data.size() * 4);
    }
    std::fflush(stdout);
  }
}
