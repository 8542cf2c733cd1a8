import { Component, ElementRef, OnInit } from '@angular/core';

declare const colorkit: { attach(el: HTMLElement, options: { swatches: string[] }): void };

@Component({ selector: 'app-picker', template: '<div class="picker"></div>' })
export class PickerComponent implements OnInit {
  constructor(private host: ElementRef) {}

  ngOnInit(): void {
    colorkit.attach(this.host.nativeElement, { swatches: ['#fff', '#000'] });
  }
}
