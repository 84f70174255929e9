#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <time.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/resource.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  int hogs=atoi(argv[1]); int nice_=atoi(argv[2]); int n=20000;
  pid_t hp[64];
  for(int i=0;i<hogs;i++){ if(!(hp[i]=fork())){ setpriority(PRIO_PROCESS,0,nice_); size_t sz=64<<20; char*b=malloc(sz); for(;;){memset(b,i,sz);} } }
  int a[2],b[2]; pipe(a); pipe(b);
  if(!fork()){ close(a[1]); char c; for(;;){ if(read(a[0],&c,1)!=1) _exit(0); usleep(50); write(b[1],&c,1);} }
  double *d=malloc(n*sizeof(double)); char c='x';
  usleep(200000);
  for(int i=0;i<n;i++){ double t=now(); write(a[1],&c,1); read(b[0],&c,1); d[i]=now()-t-50; }
  qsort(d,n,sizeof(double),cmp);
  fflush(stdout); printf("hogs=%d nice=%d: min %.1f p10 %.1f median %.1f p90 %.1f p99 %.1f max %.1f us\n",hogs,nice_,d[0],d[n/10],d[n/2],d[n*9/10],d[n*99/100],d[n-1]);
  for(int i=0;i<hogs;i++) kill(hp[i],9);
  close(a[1]); while(wait(0)>0); return 0;
}
