import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { UserEntity } from '@csv-mapper/db';
import { PlanState } from '@csv-mapper/billing';

/** The api's handle on PlanState (libs/billing): the one writer of a user's plan and subscription fields. */
@Injectable()
export class PlanStateService extends PlanState {
  constructor(@InjectRepository(UserEntity) users: Repository<UserEntity>) {
    super(users, new Logger('PlanState'));
  }
}
