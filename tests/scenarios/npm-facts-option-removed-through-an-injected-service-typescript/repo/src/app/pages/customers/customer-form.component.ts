import { Component } from '@angular/core';
import { AlertService, CustomerService } from '../../core/services';

@Component({ selector: 'app-customer-form', templateUrl: './customer-form.component.html' })
export class CustomerFormComponent {
  constructor(private alertService: AlertService, private customerService: CustomerService) {}

  delete(id: string) {
    this.alertService.custom().fire({
      text: 'Delete this customer?',
      type: 'question',
      showCancelButton: true,
    }).then((result: { value?: boolean }) => {
      if (result.value) {
        this.customerService.remove(id);
        this.alertService.success('Customer deleted');
      }
    });
  }
}
