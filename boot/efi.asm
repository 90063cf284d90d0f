; boot/efi.asm - the firmware's CPU state: saved at the EFI amd64 entry, and the way back into the firmware
; after the run (issue 23; kernel/efi.h says why and what for).
;
; efi_fw: the firmware's CPU state, saved by boot/entry.asm's efi_entry
; (with efi_save_cpu) before anything changes it.
;
; efi_call_firmware(fn, arg): save the kernel's CPU state, load the
; firmware's (XCR0, CR3, CR4, CR0, IA32_PAT, GDT and selectors, TR, IDT,
; its stack), restore RFLAGS.IF as the firmware had it, call fn(arg) there,
; then CLI and the kernel's state back; returns fn's value. The timers and
; interrupt controllers are kernel/efi.c's business (before and inside fn).
;
; State layout (struct efi_cpu_state, kernel/efi.h; kernel/efi.c checks
; these offsets with _Static_assert):
ST_RFLAGS equ 0
ST_CR0    equ 8
ST_CR3    equ 16
ST_CR4    equ 24
ST_XCR0   equ 32
ST_PAT    equ 40
ST_RSP    equ 48
ST_CS     equ 56
ST_DS     equ 64
ST_ES     equ 72
ST_SS     equ 80
ST_FS     equ 88
ST_GS     equ 96
ST_TR     equ 104
ST_GDTR   equ 112
ST_IDTR   equ 128
ST_SIZE   equ 144

CR4_PGE     equ 1 << 7
CR4_PCIDE   equ 1 << 17
CR4_OSXSAVE equ 1 << 18
MSR_PAT     equ 0x277

section .bss nobits alloc noexec write align=16
global efi_fw, efi_kernel
efi_fw:      resb ST_SIZE           ; the firmware's, at efi_entry
efi_kernel:  resb ST_SIZE           ; the kernel's, in efi_call_firmware

; SAVE_CPU base: RFLAGS, control registers, XCR0 (when CR4.OSXSAVE),
; IA32_PAT, selectors, TR, GDTR, IDTR into [base]; RSP is the caller's.
; Clobbers RAX, RCX, RDX.
%macro SAVE_CPU 1
        pushfq
        pop     rax
        mov     [%1 + ST_RFLAGS], rax
        mov     rax, cr0
        mov     [%1 + ST_CR0], rax
        mov     rax, cr3
        mov     [%1 + ST_CR3], rax
        mov     rax, cr4
        mov     [%1 + ST_CR4], rax
        mov     qword [%1 + ST_XCR0], 0
        test    eax, CR4_OSXSAVE
        jz      %%no_xcr0
        xor     ecx, ecx
        xgetbv                          ; SDM Vol. 2C XGETBV: XCR0 in EDX:EAX
        shl     rdx, 32
        or      rax, rdx
        mov     [%1 + ST_XCR0], rax
%%no_xcr0:
        mov     ecx, MSR_PAT            ; every x86-64 CPU has IA32_PAT (CPUID.1:EDX[16])
        rdmsr
        shl     rdx, 32
        or      rax, rdx
        mov     [%1 + ST_PAT], rax
        xor     eax, eax
        mov     ax, cs
        mov     [%1 + ST_CS], rax
        mov     ax, ds
        mov     [%1 + ST_DS], rax
        mov     ax, es
        mov     [%1 + ST_ES], rax
        mov     ax, ss
        mov     [%1 + ST_SS], rax
        mov     ax, fs
        mov     [%1 + ST_FS], rax
        mov     ax, gs
        mov     [%1 + ST_GS], rax
        str     ax
        mov     [%1 + ST_TR], rax
        sgdt    [%1 + ST_GDTR]
        sidt    [%1 + ST_IDTR]
%endmacro

; TSS_NOT_BUSY base: the busy bit (type 1011b -> 1001b, SDM Vol. 3A 8.2.2)
; of the TSS descriptor [base]'s TR names, in the GDT [base] names, so that
; LTR can load it again (LTR of a busy TSS is #GP). Clobbers RAX, RCX.
%macro TSS_NOT_BUSY 1
        mov     rcx, [%1 + ST_TR]
        and     ecx, 0xFFF8
        jz      %%none
        mov     rax, [%1 + ST_GDTR + 2]
        and     byte [rax + rcx + 5], ~0x02
%%none:
%endmacro

; LOAD_CPU base, cr3_first: the CPU state [base] back (not RSP, not
; RFLAGS). cr3_first 1 (to the firmware): CR3 before CR4, since CR4.PCIDE
; may be set only with CR3[11:0] = 0 (SDM Vol. 3A 4.10.1); 0 (to the
; kernel): CR4 first (clearing PCIDE and PGE flushes every TLB entry,
; global ones too), then CR3. XCR0 is written while CR4.OSXSAVE is set.
; IA32_PAT before the page tables that use it, then WBINVD (SDM Vol. 3A
; 12.12.4: caches and TLBs flushed after a PAT change; the CR3/CR4 loads
; flush the TLBs). Clobbers RAX, RCX, RDX.
%macro LOAD_CPU 2
        mov     rax, [%1 + ST_PAT]
        mov     rdx, rax
        shr     rdx, 32
        mov     ecx, MSR_PAT
        wrmsr
        wbinvd
        mov     rax, [%1 + ST_CR4]
        test    eax, CR4_OSXSAVE
        jz      %%no_xcr0
        mov     rax, cr4
        or      rax, CR4_OSXSAVE
        mov     cr4, rax
        mov     rax, [%1 + ST_XCR0]
        mov     rdx, rax
        shr     rdx, 32
        xor     ecx, ecx
        xsetbv
%%no_xcr0:
%if %2
        mov     rax, [%1 + ST_CR3]
        mov     cr3, rax
        mov     rax, [%1 + ST_CR4]
        mov     cr4, rax
%else
        mov     rax, [%1 + ST_CR4]
        mov     cr4, rax
        mov     rax, [%1 + ST_CR3]
        mov     cr3, rax
%endif
        mov     rax, [%1 + ST_CR0]
        mov     cr0, rax
        lgdt    [%1 + ST_GDTR]
        push    qword [%1 + ST_CS]
        lea     rax, [rel %%cs_loaded]
        push    rax
        retfq                           ; CS from the new GDT
%%cs_loaded:
        mov     ax, [%1 + ST_DS]
        mov     ds, ax
        mov     ax, [%1 + ST_ES]
        mov     es, ax
        mov     ax, [%1 + ST_SS]
        mov     ss, ax
        mov     ax, [%1 + ST_FS]
        mov     fs, ax
        mov     ax, [%1 + ST_GS]
        mov     gs, ax
        mov     rax, [%1 + ST_TR]
        test    eax, 0xFFF8
        jz      %%no_tr
        ltr     ax
%%no_tr:
        lidt    [%1 + ST_IDTR]
%endmacro

section .text
bits 64
global efi_save_cpu, efi_call_firmware

; efi_save_cpu: SAVE_CPU into [RDI] (boot/entry.asm's efi_entry saves the
; firmware's state with it). Clobbers RAX, RCX, RDX.
efi_save_cpu:
        SAVE_CPU rdi
        ret

efi_call_firmware:
        push    rbx
        push    rbp
        push    r12
        push    r13
        push    r14
        push    r15
        mov     r12, rdi                ; fn
        mov     r13, rsi                ; arg
        cli
        SAVE_CPU efi_kernel
        mov     [efi_kernel + ST_RSP], rsp
        TSS_NOT_BUSY efi_fw             ; both, on the kernel's tables, where both
        TSS_NOT_BUSY efi_kernel         ; GDTs are mapped writable
        LOAD_CPU efi_fw, 1
        mov     rsp, [efi_fw + ST_RSP]
        sub     rsp, 64                 ; below what GRUB left there
        and     rsp, -16
        test    qword [efi_fw + ST_RFLAGS], 1 << 9
        jz      .call
        sti                             ; the firmware's timer ticks again
.call:
        mov     rdi, r13
        call    r12
        cli
        mov     r14, rax
        LOAD_CPU efi_kernel, 0
        mov     rsp, [efi_kernel + ST_RSP]
        push    qword [efi_kernel + ST_RFLAGS]
        popfq
        mov     rax, r14
        pop     r15
        pop     r14
        pop     r13
        pop     r12
        pop     rbp
        pop     rbx
        ret
