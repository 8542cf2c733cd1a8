import { Component } from '@angular/core';
import { AlertService } from '../../core/services';

@Component({ selector: 'app-toolbar', template: '<button (click)="save()">Save</button>' })
export class ToolbarComponent {
  constructor(private alerts: AlertService) {}

  save() {
    this.alerts.success('Saved');
  }
}
