// SPDX-License-Identifier: MIT
#pragma once
// Turns a source file into a shared library. NvccCompiler builds submissions for the GPU;
// HostCompiler builds host-only code (problem references, and submissions for the host test
// double that lets CI run the whole judge without a GPU).
#include <memory>
#include <string>
#include <vector>

#include "judge/util/expected.h"
#include "judge/util/subprocess.h"

namespace judge {

class Compiler {
 public:
  virtual ~Compiler() = default;
  virtual std::string Name() const = 0;
  // Identifies the exact compiler (path + version banner): part of every cache key.
  virtual Expected<std::string> Identity() = 0;
  virtual std::vector<std::string> Flags(const std::string& target) const = 0;
  // Runs the compiler; a failed compile is a ProcessResult, not an Error.
  virtual Expected<ProcessResult> Compile(const std::string& source, const std::string& output,
                                          const std::string& target, double timeout_seconds) = 0;
};

class NvccCompiler : public Compiler {
 public:
  // `nvcc_path` empty: $NVCC, $CUDA_HOME/bin/nvcc, PATH, /usr/local/cuda/bin/nvcc.
  explicit NvccCompiler(std::string nvcc_path = "");
  std::string Name() const override { return "nvcc"; }
  Expected<std::string> Identity() override;
  std::vector<std::string> Flags(const std::string& target) const override;
  Expected<ProcessResult> Compile(const std::string& source, const std::string& output, const std::string& target,
                                  double timeout_seconds) override;
  const std::string& path() const { return path_; }
  // "13.0" from `nvcc --version`, for reports.
  std::string ReleaseVersion();

 private:
  std::string path_;
  std::string identity_;
};

class HostCompiler : public Compiler {
 public:
  explicit HostCompiler(std::vector<std::string> extra_flags = {});
  std::string Name() const override { return "c++"; }
  Expected<std::string> Identity() override;
  std::vector<std::string> Flags(const std::string& target) const override;
  Expected<ProcessResult> Compile(const std::string& source, const std::string& output, const std::string& target,
                                  double timeout_seconds) override;

 private:
  std::string path_;
  std::vector<std::string> extra_flags_;
  std::string identity_;
};

// "sm_90" from a compute capability of 9.0.
std::string ArchForComputeCapability(int major, int minor);

}  // namespace judge
