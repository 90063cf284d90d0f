; boot/vectors.asm - the 256 interrupt/exception entry stubs.
;
; Each stub pushes a zero error code where the CPU does not push one
; (SDM Vol. 3A 7.13 "Error Code": vectors 8, 10-14, 17, 21, 29, 30 push one),
; then the vector number, saves the general registers into a struct
; trap_frame (kernel/trap.h) and calls trap_handler(frame). The handler may
; change frame->rip (exception fixup) and frame->r11 before we IRETQ.

bits 64
section .text

extern trap_handler

%macro STUB 1
vector_%1:
%if (%1 == 8) || (%1 >= 10 && %1 <= 14) || (%1 == 17) || (%1 == 21) || (%1 == 29) || (%1 == 30)
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
        mov     rdi, rsp
        mov     rbx, rsp                        ; keep the frame; realign the stack
        and     rsp, ~0xF                       ; for the C ABI
        cld
        call    trap_handler
        mov     rsp, rbx
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
