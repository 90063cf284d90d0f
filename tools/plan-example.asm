; tools/plan-example.asm - five classic experiments as one plan: the source of
; iso/plan.txt. `tools/bench.py plan tools/plan-example.asm -o plan.txt`
; assembles each experiment with nasm and writes the plan file; put it at the
; root of the stick's BENCH partition (or `--stick /media/$USER/BENCH`) and
; boot: one boot measures them all, each with its own answer under its name.
; README "Writing a plan" says how this file is read:
;
;   ;; defaults WORD...            boot parameters every experiment shares
;   ;; experiment NAME [WORD...]   a new experiment and its own parameters
;   ;; init                        its init code: run before every sample,
;                                  outside the measured window
;   ;; code                        its measured code: `unroll=` copies of it
;                                  back to back (and `loops=` times that)
;
; Everything else is nasm source (64-bit, Intel syntax), comments included.
; What your code may rely on (README "Measuring your own code"): R14 points
; to its memory area (mem=, 1 MiB by default), every other general register
; is 0 when init starts, the method's start sequence then overwrites RAX,
; RBX, RCX and RDX (so init sets other registers), R15 counts loops=. The
; figure to read is the 2N-N figure per copy (`per_copy M/NAME: ...`): the
; cost of one copy of the code with the method's and the loop's overhead
; taken out.
;
; Lines before the first experiment are shared by all and may only define.

%define NODES 4096        ; the pointer chase's nodes (a power of two)
%define STRIDE_SHIFT 10   ; one node every 1 KiB: NODES << 10 = 4 MiB (mem=4M)

;; defaults ensembles=20 samples=1000 workloads=none

;; experiment imul_lat unroll=100
; Latency: each IMUL needs the result of the one before (a dependent chain),
; so a copy costs IMUL's latency, 3 core cycles on most x86-64 cores since
; the Pentium Pro (Agner Fog's instruction tables, uops.info).
        imul    rax, rax

;; experiment add_tput unroll=100
; Throughput: four ADDs on four registers, independent of each other; a copy
; costs what the core needs to issue and execute four ADDs, about 1 core
; cycle on a core with four ALU ports (read it against imul_lat: there the
; dependency sets the pace, here the ports).
        add     rsi, 1
        add     rdi, 1
        add     r8, 1
        add     r9, 1

;; experiment chase mem=4M loops=10 unroll=100
;; init
; A pointer chase through R14's area: node i is the 8 bytes at
; R14 + i * 1 KiB and holds the address of node 5i+1 mod NODES. That map
; visits every node once before it comes back (a full-period linear
; congruential sequence: Knuth, TAOCP vol. 2, 3.2.1.2, theorem A), in an
; order no stride prefetcher follows. R14's area is zeroed before each
; ensemble, so init writes the chain when node 0 is still 0 (the first
; sample of an ensemble) and only starts RSI at node 0 otherwise;
; 2 x 1000 loads stay below NODES, so no window goes round the cycle.
        mov     rsi, r14                ; start at node 0
        cmp     qword [r14], 0
        jne     .done                   ; the chain is there
        xor     r8d, r8d                ; r8: i
.node:  lea     r9, [r8 + r8 * 4 + 1]   ; 5i + 1
        and     r9d, NODES - 1          ; mod NODES
        shl     r9, STRIDE_SHIFT
        add     r9, r14                 ; the address of node 5i+1
        mov     r10, r8
        shl     r10, STRIDE_SHIFT
        mov     [r14 + r10], r9         ; node i -> node 5i+1
        inc     r8
        cmp     r8, NODES
        jb      .node
.done:
;; code
; Each load's address is the value the one before loaded: a copy costs the
; load-to-use latency of wherever the 4096 nodes' lines are (64 bytes each,
; 256 KiB in all, written by init, read by the samples before: the L2 cache
; on most cores). mem= and sweep=latency (README "The memory hierarchy")
; vary where.
        mov     rsi, [rsi]

;; experiment store_fwd unroll=100
; Store forwarding: a store and a load of the same 8 bytes, the load's
; result the next store's data, so each copy is one round trip through the
; store buffer (store-to-load forwarding: Intel's optimization manual,
; "Store Forwarding"; about 4 to 5 core cycles on recent cores).
        mov     [r14], rsi
        mov     rsi, [r14]

;; experiment branch_miss unroll=100
;; init
; A branch that goes one way or the other at random: RSI is an xorshift64
; generator (Marsaglia, "Xorshift RNGs", J. Stat. Software 8(14), 2003:
; shifts 13, 7, 17), seeded from the TSC here so that no two samples see the
; same sequence (a seed of 0 would stay 0: OR 1 keeps it odd).
        rdtsc
        shl     rdx, 32
        or      rax, rdx
        or      rax, 1
        mov     rsi, rax
;; code
; Each copy steps the generator and branches on its low bit: a predictor
; can do no better than guess, so half the branches are mispredicted. Both
; paths retire the same number of instructions (4 after the shifts), so
; compared with the same code made predictable (jz on a bit that never
; changes, e.g. `test esi, 0`) the difference per copy is half a
; misprediction's penalty.
        mov     rdi, rsi
        shl     rdi, 13
        xor     rsi, rdi
        mov     rdi, rsi
        shr     rdi, 7
        xor     rsi, rdi
        mov     rdi, rsi
        shl     rdi, 17
        xor     rsi, rdi
        test    esi, 1
        jz      .zero
        add     r8, 1
        jmp     .done
.zero:  add     r9, 1
        nop
.done:
