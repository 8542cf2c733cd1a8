import { Injectable } from '@angular/core';

@Injectable({ providedIn: 'root' })
export class CustomerService {
  private customers: string[] = [];

  remove(id: string): void {
    this.customers = this.customers.filter((c) => c !== id);
  }
}
