; boot/entry.asm - the one place that boots.
;
; A multiboot2 header (GRUB's `multiboot2` command) and a multiboot1 header
; (QEMU's `-kernel`, which only knows multiboot1), a 32-bit protected-mode
; entry that checks for long mode (without it: one FATAL line on COM1 and
; the screen, then QEMU's failure exit status 35, or a halt), identity-maps
; the first 4 GiB with 2 MiB pages, enters 64-bit mode (SDM Vol. 3A 10.8.5
; "Initializing IA-32e Mode"), enables x87/MMX/SSE (SDM Vol. 3A 14.1.3) for
; the workloads that measure vector instructions in inline asm (the
; kernel's C code uses none: it is built with -mgeneral-regs-only) and calls
;     kernel_main(uint32_t magic, uint32_t info_phys).
;
; Machine state on entry (Multiboot 0.6.96 section 3.2, Multiboot2 3.3):
; 32-bit protected mode, paging off, A20 on, interrupts off, EAX = magic,
; EBX = physical address of the boot information.

MB1_MAGIC       equ 0x1BADB002
MB1_FLAGS       equ (1 << 0) | (1 << 1)        ; page-align modules, want memory info
MB2_MAGIC       equ 0xE85250D6
MB2_ARCH_I386   equ 0

COM1            equ 0x3F8
; kernel/exit.h: a write of EXIT_FAILURE_CODE to DEBUG_EXIT_PORT makes QEMU
; with isa-debug-exit exit with status (0x11 << 1) | 1 = 35; elsewhere the
; port is unused and the write does nothing.
DEBUG_EXIT_PORT equ 0xF4
EXIT_FAILURE_CODE equ 0x11

section .multiboot_header progbits alloc noexec nowrite align=8
align 4
mb1_header:
        dd MB1_MAGIC
        dd MB1_FLAGS
        dd -(MB1_MAGIC + MB1_FLAGS)

align 8
mb2_header:
        dd MB2_MAGIC
        dd MB2_ARCH_I386
        dd mb2_header_end - mb2_header
        dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
        ; Framebuffer tag (Multiboot2 3.1.10): we can draw on a linear RGB
        ; framebuffer of 32 or 24 bits per pixel (kernel/fb.c). Width and
        ; height 0: no preference (GRUB then asks for "auto", the firmware's
        ; preferred mode, and ignores the depth). Optional (flags bit 0): a
        ; loader may keep VGA text mode, as GRUB does under BIOS when
        ; gfxpayload=text is set after the multiboot2 command (iso/grub.cfg);
        ; without it GRUB would switch a BIOS machine to a VBE mode.
        align 8, db 0
        dw 5, 1
        dd 20
        dd 0, 0, 32
        ; EFI boot services tag (3.1.12) and EFI amd64 entry address tag
        ; (3.1.8), both or neither: GRUB's EFI build then keeps the boot
        ; services and enters boot/efi.asm's efi_entry in 64-bit mode (with
        ; tag 7 alone GRUB 2.06 would jump to the i386 _start in 64-bit
        ; mode). Optional (flags bit 0): a BIOS loader ignores them and
        ; enters _start as before; so does GRUB's BIOS build.
        align 8, db 0
        dw 7, 1
        dd 8
        align 8, db 0
        dw 9, 1
        dd 12
        dd efi_entry
        ; end tag
        align 8, db 0
        dw 0, 0
        dd 8
mb2_header_end:

section .bss nobits alloc noexec write align=4096
; Page tables: PML4 -> one PDPT -> four page directories of 2 MiB pages.
global boot_pml4
boot_pml4:      resb 4096
boot_pdpt:      resb 4096
boot_pd:        resb 4096 * 4
global boot_stack_bottom, boot_stack_top
boot_stack_bottom:
                resb 65536
boot_stack_top:

section .data
global boot_magic, boot_info
boot_magic:     dd 0
boot_info:      dd 0

align 8
gdt64:
        dq 0                                    ; null
        dq 0x00AF9A000000FFFF                   ; 0x08: 64-bit ring-0 code (L=1)
        dq 0x00CF92000000FFFF                   ; 0x10: ring-0 data
gdt64_end:
gdt64_ptr:
        dw gdt64_end - gdt64 - 1
        dq gdt64

section .rodata
msg_no_cpuid:    db "bench: FATAL: this CPU has no CPUID instruction (EFLAGS.ID cannot be toggled); cannot run", 13, 10, 0
msg_no_longmode: db "bench: FATAL: this CPU does not support long mode (CPUID.80000001H:EDX[29]=0); this image needs an x86-64 CPU", 13, 10, 0

section .text
bits 32
global _start
extern _bss_start, _bss_end, kernel_main, efi_early, efi_save_cpu, efi_fw
_start:
        cli
        cld
        mov     ebp, eax                        ; keep magic and info out of the
        mov     esi, ebx                        ; registers rep stosb uses

        ; Zero .bss (page tables and stack live there).
        mov     edi, _bss_start
        mov     ecx, _bss_end
        sub     ecx, edi
        xor     eax, eax
        rep stosb

        mov     esp, boot_stack_top
        mov     [boot_magic], ebp
        mov     [boot_info], esi

        ; CPUID present? (SDM Vol. 1 3.4.3.3: software can toggle EFLAGS.ID)
        pushfd
        pop     eax
        mov     ecx, eax
        xor     eax, 1 << 21
        push    eax
        popfd
        pushfd
        pop     eax
        push    ecx
        popfd
        xor     eax, ecx
        jz      .no_cpuid

        ; Long mode? CPUID.80000000H:EAX >= 80000001H and CPUID.80000001H:EDX[29].
        mov     eax, 0x80000000
        cpuid
        cmp     eax, 0x80000001
        jb      .no_long_mode
        mov     eax, 0x80000001
        cpuid
        test    edx, 1 << 29
        jz      .no_long_mode

        ; Identity map 0..4 GiB: PML4[0] -> PDPT, PDPT[0..3] -> PD0..PD3,
        ; each PD entry a 2 MiB page, present + writable + PS (0x83).
        mov     eax, boot_pdpt
        or      eax, 0x3
        mov     [boot_pml4], eax
        mov     edi, boot_pdpt
        mov     eax, boot_pd
        or      eax, 0x3
        mov     ecx, 4
.fill_pdpt:
        mov     [edi], eax
        add     eax, 4096
        add     edi, 8
        loop    .fill_pdpt

        mov     edi, boot_pd
        xor     ebx, ebx                        ; page index 0..2047
.fill_pd:
        mov     eax, ebx
        shl     eax, 21                         ; low 32 bits of index * 2 MiB
        or      eax, 0x83
        mov     [edi], eax
        mov     eax, ebx
        shr     eax, 11                         ; high bits of index * 2 MiB
        mov     [edi + 4], eax
        add     edi, 8
        inc     ebx
        cmp     ebx, 2048
        jb      .fill_pd

        ; SDM Vol. 3A 10.8.5: CR4.PAE, CR3, IA32_EFER.LME, then CR0.PG.
        mov     eax, cr4
        or      eax, 1 << 5                     ; PAE
        mov     cr4, eax
        mov     eax, boot_pml4
        mov     cr3, eax
        mov     ecx, 0xC0000080                 ; IA32_EFER
        rdmsr
        or      eax, 1 << 8                     ; LME
        wrmsr
        mov     eax, cr0
        or      eax, (1 << 31) | (1 << 0)       ; PG | PE
        mov     cr0, eax

        lgdt    [gdt64_ptr]
        jmp     0x08:long_mode_entry

.no_cpuid:
        mov     esi, msg_no_cpuid
        jmp     fatal32
.no_long_mode:
        mov     esi, msg_no_longmode
        jmp     fatal32

; fatal32: print the NUL-terminated string at ESI on COM1 and on the VGA text
; screen, end the run as every fatal path does (kernel/exit.c bench_exit):
; the failure code to the isa-debug-exit port, which I/O instructions reach
; from 32-bit protected mode as from 64-bit mode, then halt forever where
; that port does nothing. The serial wait is bounded so a missing UART
; cannot hang us before the exit.
fatal32:
        mov     edi, 0xB8000
.next:
        lodsb
        test    al, al
        jz      .halt
        mov     ah, 0x4F                        ; white on red
        mov     [edi], ax
        add     edi, 2
        mov     bl, al
        mov     ecx, 100000
.wait:
        mov     dx, COM1 + 5                    ; line status register
        in      al, dx
        test    al, 0x20                        ; THR empty
        jnz     .send
        loop    .wait
.send:
        mov     al, bl
        mov     dx, COM1
        out     dx, al
        jmp     .next
.halt:
        mov     dx, DEBUG_EXIT_PORT
        mov     eax, EXIT_FAILURE_CODE
        out     dx, eax
.hang:
        cli
        hlt
        jmp     .hang

bits 64
; boot_build_identity_map: the same 4 GiB identity map of 2 MiB pages as
; the i386 entry builds, from 64-bit mode (boot/efi.asm's efi_entry, on the
; firmware's page tables, which map the image 1:1). .bss is zeroed already.
; Clobbers RAX, RCX, RDX, RDI.
boot_build_identity_map:
        mov     rax, boot_pdpt
        or      rax, 0x3
        mov     [boot_pml4], rax
        mov     rdi, boot_pdpt
        mov     rax, boot_pd
        or      rax, 0x3
        mov     ecx, 4
.pdpt:
        mov     [rdi], rax
        add     rax, 4096
        add     rdi, 8
        loop    .pdpt
        mov     rdi, boot_pd
        xor     eax, eax
        mov     ecx, 2048
.pd:
        lea     rdx, [rax + 0x83]
        mov     [rdi], rdx
        add     rax, 0x200000
        add     rdi, 8
        loop    .pd
        ret

; efi_entry: GRUB (an EFI binary) jumps here when the multiboot2 header has
; tags 7 and 9 (Multiboot2 3.1.8, 3.1.12). Machine state (Multiboot2 3.5,
; UEFI 2.x 2.3.4 "x64 Platforms"): 64-bit mode on the firmware's
; identity-mapped page tables, its GDT and IDT, its stack (RSP 16-byte
; aligned by GRUB), interrupts enabled, RAX = magic 0x36d76289, RBX = the
; boot information. Steps: zero .bss; the firmware's CPU state into efi_fw
; (boot/efi.asm); efi_early (kernel/efi.c: watchdog off, memory map,
; memory taken) on the firmware's state and stack; then CLI, the kernel's
; own 4 GiB identity map, GDT and stack, and long_mode_entry as from the
; i386 entry. kernel/efi.h says what happens after the run.
EFI_ST_RSP      equ 48                  ; struct efi_cpu_state.rsp (kernel/efi.h)
CR4_PGE_PCIDE   equ (1 << 7) | (1 << 17)
global efi_entry
efi_entry:
        cld
        mov     r12, rax                ; magic
        mov     r13, rbx                ; the boot information
        mov     rdi, _bss_start         ; .bss zeroed (page tables, stacks, efi_fw)
        mov     rcx, _bss_end
        sub     rcx, rdi
        xor     eax, eax
        rep stosb
        mov     rdi, efi_fw
        call    efi_save_cpu
        mov     [efi_fw + EFI_ST_RSP], rsp
        mov     [boot_magic], r12d
        mov     [boot_info], r13d

        mov     rdi, r13
        and     rsp, -16
        call    efi_early               ; on the firmware's state: boot services

        cli
        call    boot_build_identity_map
        mov     rsp, boot_stack_top
        mov     rax, cr4
        and     rax, ~CR4_PGE_PCIDE     ; flush global entries; no PCIDs here
        mov     cr4, rax
        mov     rax, boot_pml4
        mov     cr3, rax
        lgdt    [gdt64_ptr]
        push    0x08
        mov     rax, long_mode_entry
        push    rax
        retfq                           ; long_mode_entry: selectors, SSE, kernel_main

long_mode_entry:
        mov     ax, 0x10
        mov     ds, ax
        mov     es, ax
        mov     ss, ax
        xor     ax, ax
        mov     fs, ax
        mov     gs, ax
        mov     rsp, boot_stack_top

        ; SSE: CR0.EM = 0, CR0.MP = 1, CR0.TS = 0; CR4.OSFXSR and
        ; CR4.OSXMMEXCPT = 1 (SDM Vol. 3A 14.1.3).
        mov     rax, cr0
        and     rax, ~((1 << 2) | (1 << 3))
        or      rax, 1 << 1
        mov     cr0, rax
        mov     rax, cr4
        or      rax, (1 << 9) | (1 << 10)
        mov     cr4, rax
        fninit

        mov     edi, [boot_magic]
        mov     esi, [boot_info]
        xor     ebp, ebp
        call    kernel_main
.hang:
        cli
        hlt
        jmp     .hang
