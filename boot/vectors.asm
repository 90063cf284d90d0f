; boot/vectors.asm - the 256 interrupt/exception entry stubs.
;
; Each stub pushes a zero error code where the CPU does not push one
; (SDM Vol. 3A 7.13 "Error Code": vectors 8, 10-14, 17, 21, 29, 30 push one),
; then the vector number, saves the general registers into a struct
; trap_frame (kernel/trap.h) and calls trap_handler(frame). The handler may
; change frame->rip (exception fixup) and frame->r11 before we IRETQ.
;
; A software INT n to one of those vectors pushes no error code (SDM Vol. 3A
; 7.13: none for INT n, nor for an external interrupt), so the stub tells
; the two frames apart by RSP: in 64-bit mode the CPU aligns RSP to 16 bytes before it pushes the frame
; (SDM Vol. 3A 7.14.2 "64-Bit Mode Stack Frame"; AMD APM Vol. 2 8.9.3), so
; on entry RSP mod 16 is 8 after the five qwords SS, RSP, RFLAGS, CS, RIP and
; 0 after a sixth, the error code. Without one the stub pushes a zero and
; marks the vector TRAP_VECTOR_SOFT (kernel/trap.h), which trap_handler
; turns into frame->soft.

bits 64
section .text

extern trap_handler

TRAP_VECTOR_SOFT equ 0x100                      ; kernel/trap.h

%macro STUB 1
vector_%1:
%if (%1 == 8) || (%1 >= 10 && %1 <= 14) || (%1 == 17) || (%1 == 21) || (%1 == 29) || (%1 == 30)
        test    rsp, 8
        jz      %%cpu_pushed_one                ; RSP mod 16 = 0: an error code
        push    0                               ; INT n: none
        push    %1 | TRAP_VECTOR_SOFT
        jmp     trap_common
%%cpu_pushed_one:
%else
        push    0
%endif
        push    %1
        jmp     trap_common
%endmacro

%assign i 0
%rep 256
STUB i
%assign i i + 1
%endrep

trap_common:
        push    rax
        push    rbx
        push    rcx
        push    rdx
        push    rsi
        push    rdi
        push    rbp
        push    r8
        push    r9
        push    r10
        push    r11
        push    r12
        push    r13
        push    r14
        push    r15
        push    0                               ; frame->soft, set by trap_handler
        mov     rdi, rsp
        mov     rbx, rsp                        ; keep the frame; realign the stack
        and     rsp, ~0xF                       ; for the C ABI
        cld
        call    trap_handler
        lea     rsp, [rbx + 8]                  ; past frame->soft
        pop     r15
        pop     r14
        pop     r13
        pop     r12
        pop     r11
        pop     r10
        pop     r9
        pop     r8
        pop     rbp
        pop     rdi
        pop     rsi
        pop     rdx
        pop     rcx
        pop     rbx
        pop     rax
        add     rsp, 16                         ; vector and error code
        iretq

section .rodata
global trap_vector_table
align 8
trap_vector_table:
%assign i 0
%rep 256
        dq vector_ %+ i
%assign i i + 1
%endrep
