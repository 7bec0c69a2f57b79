// The `ivm` skeleton over MPI ranks, one GPU each: rank 0 runs the exchange and a GPU
// like any other rank, and a thread per other rank answers that rank's worker for it
// (so rank 0 needs MPI_THREAD_MULTIPLE). A worker's questions to the exchange become a
// request and a reply; images (a GPU's explorers, runtime/ivm/ivm_exchange.hpp) follow a
// request or a reply as a second message. Messages are structs sent as bytes: every
// rank runs the same binary.
#include "runtime/distributed/mpi_session.hpp"

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "runtime/core/skeleton_run.hpp"
#include "runtime/core/solve_options.hpp"
#include "runtime/ivm/ivm_ranks.hpp"

namespace permjit {

namespace {
enum Tag { kTagRequest = 21, kTagRequestImage = 22, kTagReply = 23, kTagReplyImage = 24 };
enum Kind { kReport = 1, kGive, kPutBack, kDeposit, kWant, kDone };

// A worker on rank r > 0 to rank 0.
struct Request {
  int kind = 0;
  int best = 0;
  int hungry = 0;
  double remaining = 0;
  unsigned long long evaluated = 0;
  unsigned long long bytes = 0;  // an image follows (kGive, kPutBack, kDeposit)
  PjGpuResults results{};        // kDeposit, kWant, kDone
  IvmDeviceStats stats{};        // kDone
};

// Rank 0's answer.
struct Reply {
  int best = 0;
  int give = 0, checkpoint = 0, stop = 0;
  int over = 0;                  // kWant: the search is over
  unsigned long long bytes = 0;  // kWant, kReport: an image follows
};

int count_of(unsigned long long bytes) {
  if (bytes > static_cast<unsigned long long>(INT_MAX))
    throw std::runtime_error("an ivm image of " + std::to_string(bytes) + " bytes is too large for one MPI message");
  return static_cast<int>(bytes);
}

void send_bytes(const void* p, unsigned long long n, int to, int tag) {
  MPI_Send(p, count_of(n), MPI_BYTE, to, tag, MPI_COMM_WORLD);
}
void recv_bytes(void* p, unsigned long long n, int from, int tag) {
  MPI_Recv(p, count_of(n), MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// A rank other than 0 stops quietly: rank 0 failed before the search and reports why.
struct RankZeroFailed {};

// A worker's exchange on another rank: each question is a request to rank 0.
class Client : public IvmPeers {
 public:
  IvmRoundReply after_round(int, const IvmRoundReport& rep) override {
    Request q;
    q.kind = kReport;
    q.best = rep.best;
    q.remaining = rep.remaining;
    q.evaluated = rep.evaluated;
    q.hungry = rep.hungry;
    const Reply a = ask(q, nullptr);
    IvmRoundReply r{a.best, a.give != 0, a.checkpoint != 0, a.stop != 0, {}};
    r.image = image_after(a);
    return r;
  }
  void put_back(int, std::string image) override {
    Request q;
    q.kind = kPutBack;
    ask(q, &image);
  }
  void give(int, std::string image) override {
    Request q;
    q.kind = kGive;
    ask(q, &image);
  }
  bool deposit(int, std::string image, const PjGpuResults& results) override {
    Request q;
    q.kind = kDeposit;
    q.results = results;
    return ask(q, &image).stop != 0;
  }
  std::optional<std::string> want_work(int, const PjGpuResults& results) override {
    Request q;
    q.kind = kWant;
    q.results = results;
    const Reply a = ask(q, nullptr);
    if (a.over) return std::nullopt;
    return image_after(a);
  }
  void done(const PjGpuResults& results, const IvmDeviceStats& stats) {
    Request q;
    q.kind = kDone;
    q.results = results;
    q.stats = stats;
    send_bytes(&q, sizeof q, 0, kTagRequest);
  }

 private:
  // The image that follows a reply, if it says one does.
  static std::string image_after(const Reply& a) {
    std::string image(a.bytes, '\0');
    if (a.bytes) recv_bytes(image.data(), a.bytes, 0, kTagReplyImage);
    return image;
  }
  Reply ask(Request& q, const std::string* image) {
    q.bytes = image ? image->size() : 0;
    send_bytes(&q, sizeof q, 0, kTagRequest);
    if (q.bytes) send_bytes(image->data(), q.bytes, 0, kTagRequestImage);
    Reply a;
    recv_bytes(&a, sizeof a, 0, kTagReply);
    return a;
  }
};

class MpiRanks : public IvmRanks {
 public:
  explicit MpiRanks(MpiSession& mpi) : mpi_(mpi) {
    // The ranks of this host, in order: the GPU of each.
    MPI_Comm host;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, mpi.rank, MPI_INFO_NULL, &host);
    MPI_Comm_rank(host, &host_rank_);
    MPI_Comm_free(&host);
  }
  int rank() const override { return mpi_.rank; }
  int size() const override { return mpi_.size; }
  int local_gpu(int devices) const override { return devices > 0 ? host_rank_ % devices : 0; }
  void share(IvmShared& s) override {
    MPI_Bcast(&s, sizeof s, MPI_BYTE, 0, MPI_COMM_WORLD);
    shared_ = true;
    if (!s.ok) throw RankZeroFailed{};
  }
  // Rank 0 failed before share(): the others are told, and return.
  void fail_before_share() {
    IvmShared s;
    s.ok = 0;
    MPI_Bcast(&s, sizeof s, MPI_BYTE, 0, MPI_COMM_WORLD);
  }
  bool shared() const { return shared_; }
  IvmPeers* client() override { return &client_; }
  void done(const PjGpuResults& results, const IvmDeviceStats& stats) override { client_.done(results, stats); }

  void serve(IvmExchange& exchange) override {
    finals_.assign(static_cast<size_t>(mpi_.size), PjGpuResults{});
    load_.assign(static_cast<size_t>(mpi_.size), Load{});
    stats_.assign(static_cast<size_t>(mpi_.size), IvmDeviceStats{});
    for (int j = 1; j < mpi_.size; ++j) threads_.emplace_back([this, &exchange, j] { answer(exchange, j); });
  }
  void collect(std::vector<PjGpuResults>& finals, std::vector<IvmDeviceStats>& stats) override {
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    for (int j = 1; j < mpi_.size; ++j) {
      finals.push_back(finals_[static_cast<size_t>(j)]);
      stats.push_back(stats_[static_cast<size_t>(j)]);
      messages_ += load_[static_cast<size_t>(j)].messages;
      busy_ += load_[static_cast<size_t>(j)].busy;
    }
  }
  unsigned long long messages() const override { return messages_; }
  double busy_seconds() const override { return busy_; }

 private:
  // Rank j's worker, answered from the exchange until it is done.
  void answer(IvmExchange& exchange, int j) {
    using clock = std::chrono::steady_clock;
    Load& load = load_[static_cast<size_t>(j)];
    for (;;) {
      Request q;
      recv_bytes(&q, sizeof q, j, kTagRequest);
      auto t = clock::now();  // busy from here, less the waits for work or a checkpoint
      std::string image(q.bytes, '\0');
      if (q.bytes) recv_bytes(image.data(), q.bytes, j, kTagRequestImage);
      load.messages += 2 + (q.bytes ? 1 : 0);
      Reply a;
      switch (q.kind) {
        case kReport: {
          IvmRoundReply r = exchange.after_round(j, {q.remaining, q.evaluated, q.best, q.hungry != 0});
          a.best = r.best;
          a.give = r.give;
          a.checkpoint = r.checkpoint;
          a.stop = r.stop;
          a.bytes = r.image.size();
          send_bytes(&a, sizeof a, j, kTagReply);
          if (a.bytes) send_bytes(r.image.data(), a.bytes, j, kTagReplyImage);
          load.busy += std::chrono::duration<double>(clock::now() - t).count();
          continue;
        }
        case kGive:
          exchange.give(j, std::move(image));
          break;
        case kPutBack:
          exchange.put_back(j, std::move(image));
          break;
        case kDeposit:
          load.busy += std::chrono::duration<double>(clock::now() - t).count();
          a.stop = exchange.deposit(j, std::move(image), q.results);
          t = clock::now();
          break;
        case kWant: {
          load.busy += std::chrono::duration<double>(clock::now() - t).count();
          std::optional<std::string> got = exchange.want_work(j, q.results);
          t = clock::now();
          a.over = !got;
          a.bytes = got ? got->size() : 0;
          send_bytes(&a, sizeof a, j, kTagReply);
          if (got) send_bytes(got->data(), got->size(), j, kTagReplyImage);
          load.messages += got ? 1 : 0;
          load.busy += std::chrono::duration<double>(clock::now() - t).count();
          continue;
        }
        case kDone:
          finals_[static_cast<size_t>(j)] = q.results;
          stats_[static_cast<size_t>(j)] = q.stats;
          return;
        default:
          std::fprintf(stderr, "permjit (rank 0): rank %d sent an unknown request %d\n", j, q.kind);
          MPI_Abort(MPI_COMM_WORLD, 2);
      }
      send_bytes(&a, sizeof a, j, kTagReply);
      load.busy += std::chrono::duration<double>(clock::now() - t).count();
    }
  }
  struct Load {
    unsigned long long messages = 0;
    double busy = 0;
  };

  MpiSession& mpi_;
  int host_rank_ = 0;
  bool shared_ = false;
  Client client_;
  std::vector<std::thread> threads_;
  std::vector<PjGpuResults> finals_;
  std::vector<IvmDeviceStats> stats_;
  std::vector<Load> load_;  // per rank, written by its thread only
  unsigned long long messages_ = 0;
  double busy_ = 0;
};
}  // namespace

void run_ivm_mpi(SkeletonRun& run) {
  // Rank 0's threads that answer the other ranks call MPI at the same time.
  MpiSession mpi(MPI_THREAD_MULTIPLE);
  MpiRanks ranks(mpi);
  try {
    run_ivm(run, ranks);
  } catch (const SearchInterrupted&) {
    throw;  // every rank has stopped and rank 0 has written the checkpoint
  } catch (const RankZeroFailed&) {
    run.result.silent = true;  // rank 0 says why
  } catch (const std::exception& e) {
    if (!ranks.shared()) {  // nobody waits on another rank yet
      if (mpi.rank == 0) {  // report it as usual, and tell the others
        ranks.fail_before_share();
        throw;
      }
      // Rank 0 most likely met the same error (a user's, found alike on every rank) and
      // reports it: hear whether it did before saying anything.
      IvmShared s;
      MPI_Bcast(&s, sizeof s, MPI_BYTE, 0, MPI_COMM_WORLD);
      if (!s.ok) {
        run.result.silent = true;
        return;
      }
    }
    // Mid-search the other ranks wait on this one: the job cannot go on without it.
    std::fprintf(stderr, "permjit (rank %d): error: %s\n", mpi.rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

}  // namespace permjit
