; boot/trampoline.asm - where an application processor (AP) starts.
;
; kernel/smp.c copies these bytes to a free 4 KiB page P below 1 MiB and
; sends the AP INIT, then a start-up IPI with vector P >> 12 (SDM Vol. 3A
; 9.4.4 "MP Initialization Example"; 11.6.1: the vector is the page
; number), so the AP begins here in real mode at CS = P >> 4, IP = 0
; (SDM Vol. 3A 9.4.3). The code is position-independent: it finds P from
; CS, patches the two addresses it needs into this page, and then takes
; the boot CPU's path (SDM Vol. 3A 10.9.1 to protected mode, 10.8.5 to
; IA-32e mode): a temporary GDT here, CR0.PE, then the boot CPU's CR4,
; CR3, IA32_PAT, IA32_EFER and CR0 (which sets PG: long mode on the
; kernel's own page tables, whose first 4 GiB map P to itself), a far
; jump to a 64-bit code segment, and finally a call of the kernel's
; entry (tr_entry) with the argument tr_arg on the stack tr_stack.
;
; tr_stack is a claim: the AP swaps it with 0 (LOCK XCHG) and goes on
; only if it got a stack. The boot CPU swaps it too when it gives up on an
; AP, so an AP that starts too late finds 0 and halts here, touching
; nothing else.
;
; The parameter block (smp_tramp_params) is filled by kernel/smp.c; its
; layout is struct tramp_params there: nine 64-bit values.

bits 16
section .rodata
align 16
global smp_trampoline, smp_trampoline_end, smp_tramp_params

smp_trampoline:
        cli
        cld
        mov     ax, cs
        mov     ds, ax
        movzx   ebx, ax
        shl     ebx, 4                          ; EBX = P, kept through to long mode
        lea     eax, [ebx + tr_gdt - smp_trampoline]
        mov     [tr_gdtr + 2 - smp_trampoline], eax
        lea     eax, [ebx + tr_pm32 - smp_trampoline]
        mov     [tr_far32 - smp_trampoline], eax
        lea     eax, [ebx + tr_lm64 - smp_trampoline]
        mov     [tr_far64 - smp_trampoline], eax
        o32 lgdt [tr_gdtr - smp_trampoline]
        mov     eax, cr0
        or      eax, 1                          ; PE
        mov     cr0, eax
        jmp     dword far [tr_far32 - smp_trampoline]

bits 32
tr_pm32:
        mov     ax, 0x10
        mov     ds, ax
        mov     es, ax
        mov     ss, ax
        ; SDM Vol. 3A 10.8.5: CR4.PAE, CR3, IA32_EFER.LME, then CR0.PG.
        mov     eax, [ebx + tr_cr4 - smp_trampoline]
        mov     cr4, eax
        mov     eax, [ebx + tr_cr3 - smp_trampoline]
        mov     cr3, eax
        cmp     dword [ebx + tr_has_pat - smp_trampoline], 0
        je      .no_pat
        mov     ecx, 0x277                      ; IA32_PAT
        mov     eax, [ebx + tr_pat - smp_trampoline]
        mov     edx, [ebx + tr_pat + 4 - smp_trampoline]
        wrmsr
.no_pat:
        mov     ecx, 0xC0000080                 ; IA32_EFER (LMA cleared by smp.c)
        mov     eax, [ebx + tr_efer - smp_trampoline]
        mov     edx, [ebx + tr_efer + 4 - smp_trampoline]
        wrmsr
        mov     eax, [ebx + tr_cr0 - smp_trampoline]
        mov     cr0, eax                        ; PG: IA-32e mode, compatibility
        jmp     far [ebx + tr_far64 - smp_trampoline]

bits 64
tr_lm64:
        xor     eax, eax
        lock xchg [rbx + tr_stack - smp_trampoline], rax
        test    rax, rax
        jz      .unclaimed
        mov     rsp, rax
        fninit                                  ; x87 as the boot CPU's (entry.asm)
        mov     rdi, [rbx + tr_arg - smp_trampoline]
        mov     rax, [rbx + tr_entry - smp_trampoline]
        call    rax                             ; never returns
.unclaimed:
        cli
        hlt
        jmp     .unclaimed

align 8
tr_gdt:
        dq 0                                    ; null
        dq 0x00CF9A000000FFFF                   ; 0x08: 32-bit code
        dq 0x00CF92000000FFFF                   ; 0x10: data
        dq 0x00AF9A000000FFFF                   ; 0x18: 64-bit code (L=1)
tr_gdtr:
        dw 4 * 8 - 1
        dd 0                                    ; P + tr_gdt
align 8
tr_far32:
        dd 0                                    ; P + tr_pm32
        dw 0x08
align 8
tr_far64:
        dd 0                                    ; P + tr_lm64
        dw 0x18

align 8
smp_tramp_params:                               ; struct tramp_params (kernel/smp.c)
tr_cr0:         dq 0
tr_cr3:         dq 0
tr_cr4:         dq 0
tr_efer:        dq 0
tr_pat:         dq 0
tr_has_pat:     dq 0
tr_entry:       dq 0
tr_arg:         dq 0
tr_stack:       dq 0
smp_trampoline_end:
