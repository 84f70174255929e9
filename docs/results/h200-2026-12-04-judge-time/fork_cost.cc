// Throwaway measurement (session 18, 2026-12-04, the 2-core build machine): what one fork() of a
// process holding GIB gigabytes costs it, and what rewriting 1 GiB of its memory costs right after,
// against posix_spawn; with and without transparent huge pages. g++ -O2 fork_cost.cc && ./a.out 8 [thp]
#include <unistd.h>
#include <spawn.h>
#include <sys/wait.h>
#include <sys/mman.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
extern char** environ;
double now(){return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();}
int main(int argc,char**argv){
  size_t G=size_t(atoi(argv[1]))<<30; bool thp=argc>2;
  char* p=(char*)aligned_alloc(2<<20,G); if(thp) madvise(p,G,MADV_HUGEPAGE); memset(p,1,G);
  for(int k=0;k<3;k++){
    double t=now(); pid_t c=fork(); if(c==0){_exit(0);} waitpid(c,0,0); double a=now()-t;
    t=now(); memset(p,2,size_t(1)<<30); double b=now()-t;
    t=now(); pid_t s; char* av[]={(char*)"/bin/true",0}; posix_spawn(&s,"/bin/true",0,0,av,environ); waitpid(s,0,0); double c2=now()-t;
    t=now(); memset(p,3,size_t(1)<<30); double d=now()-t;
    printf("RSS %zuG thp=%d: fork+wait %.3f s, then 1G rewrite %.3f s | spawn+wait %.4f s, then 1G rewrite %.3f s\n",G>>30,thp,a,b,c2,d);
  }
}
